"""The rules engine: scenarios that cite the rule rows they prove, records, properties."""
