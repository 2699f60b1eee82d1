"""The fourteen tools: specs, handlers and the one dispatcher every front end uses."""
