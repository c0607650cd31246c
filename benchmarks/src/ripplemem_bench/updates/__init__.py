"""The update suite: conversations whose facts change, scored on current values, history and
false-update controls (``ripplemem bench updates FILE``)."""
