"""Pure field checks: each failed check is a warning beside the values, never a silent correction."""
