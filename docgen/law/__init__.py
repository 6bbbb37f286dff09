"""Law as data and pure functions: jurisdiction packs, penalties, deadlines."""

# How a command's option naming a municipality is described: the municipalities are the
# packs installed, never a list written here (kept in this light module so that help
# loads no pack).
JURISDICTION_HELP = "the municipality (`docgen jurisdictions` lists those installed)"
