"""Speed and scale: insert cost as a store grows, search latency, ingest time, AssoMem's PPR."""
