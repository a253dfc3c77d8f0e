"""Witch's Brew (Andreas Pelikan, alea 2008): the bidding game of roles."""
