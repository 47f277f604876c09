"""Game persistence.

Empty for now: the rules live in the pure engine (games.engine); tables and seats
arrive with live play.
"""
