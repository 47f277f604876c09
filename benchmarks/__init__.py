"""Scripts that measure speed and print figures (never timed unit tests)."""
