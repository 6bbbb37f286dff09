"""Law as data and pure functions: jurisdiction packs, penalties, deadlines."""
