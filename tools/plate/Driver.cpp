// Driver placeholder.
