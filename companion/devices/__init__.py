"""Table devices: the button box (pure protocol, serial transport, virtual box) and lights."""
