"""Generation by span reference: the model cites span ids, never types a quote."""
