"""The time-expression suite: messages whose time expressions have known calendar spans."""
