"""Reading pairs: pair files, translator outputs joined to references by key, result
files written and read back (the first tier)."""
