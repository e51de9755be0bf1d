"""Running batches: where pairs are scored (executors), result files that stream and
resume, per-problem figures of sampled outputs, whether a run scored enough (a tier above
the metrics)."""
