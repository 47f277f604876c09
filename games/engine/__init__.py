"""Pure game engines: plain data in, plain data out; never imports Django."""
