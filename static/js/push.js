// This device's "your turn" pushes for its seat (issue 20): being built.
