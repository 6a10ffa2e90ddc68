"""Stage 5, dataset: records assembled from sites and explanations, published atomically as one version under OUT."""
