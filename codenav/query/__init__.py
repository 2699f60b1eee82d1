"""What answers are about, as plain data: the layer between the map and the tools."""
