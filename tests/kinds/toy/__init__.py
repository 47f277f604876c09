"""High card, the toy game kind of the tests: a second game in a folder of its own, registered
by the tests only, to prove that the platform hosts a game it has never heard of."""
