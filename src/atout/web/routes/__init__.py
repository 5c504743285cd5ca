"""The web app's routes, one router per area: the pages, the tables' API, the finished games' API, the lobby's
WebSocket and the tables' WebSocket."""
