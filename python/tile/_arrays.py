"""What tile.ops asks of its arrays, torch tensors or NumPy arrays alike."""


def is_torch(x):
    """Whether x is a torch tensor (without importing torch)."""
    return type(x).__module__.startswith("torch")


def dtype_text(x):
    """x's dtype as both libraries spell it: "float32", "bfloat16"."""
    return str(x.dtype).replace("torch.", "")
