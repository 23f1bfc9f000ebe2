"""Reads Prometheus' text exposition format on stdin and prints its metric families as JSON, parsed by
the Prometheus project's own Python client (prometheus_client.parser): for e2e/metrics.test.js.

Output: [{"name", "type", "samples": [{"name", "labels", "value"}]}]; a counter's family is named
without its _total, as the format defines, while its sample keeps it.
"""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

families = [
    {
        "name": family.name,
        "type": family.type,
        "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in family.samples],
    }
    for family in text_string_to_metric_families(sys.stdin.read())
]
json.dump(families, sys.stdout)
