"""The games pokerdyn ships, each a function that builds an immutable Game (Kuhn family,
Papadopoulos' river game, synthetic layered games), and the registry that names them."""
