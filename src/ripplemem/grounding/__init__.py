"""Time grounding, shared by the write path (units' time spans) and the read path (the time a
question asks about): rule patterns first, Duckling for what the rules leave."""
