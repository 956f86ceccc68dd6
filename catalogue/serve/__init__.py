"""The local preview: a server for the built site and `serve --watch`."""
