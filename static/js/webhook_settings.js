// The host's webhook to the group chat (issue 20): being built.
