"""Whirling Witchcraft (AEG, 2021): 2–5 witches, simultaneous hidden recipe plays, cauldrons
passing right. See README.md in this folder for the state schema and the readings we chose."""
