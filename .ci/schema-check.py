#!/usr/bin/env python3
"""The scenario schema (topologies/scenario.schema.json) accepts every shipped topology and
rejects every structural bad input of Tests/SchemaCases/bad-inputs.json (the decoder rejects
them too: SchemaTests)."""
import glob, json, sys
from jsonschema import Draft202012Validator

schema = json.load(open('topologies/scenario.schema.json'))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
failures = []
files = [f for f in sorted(glob.glob('topologies/**/*.json', recursive=True)) if not f.endswith('scenario.schema.json')]
for f in files:
    for e in validator.iter_errors(json.load(open(f))):
        failures.append(f'{f}: {"/".join(map(str, e.absolute_path))}: {e.message}')
cases = json.load(open('Tests/SchemaCases/bad-inputs.json'))
for c in cases:
    if validator.is_valid(c['scenario']):
        failures.append(f'the schema accepts a bad input: {c["why"]}')
for line in failures:
    print('schema-check:', line)
if failures:
    sys.exit(1)
print(f'schema-check: {len(files)} shipped topologies valid, {len(cases)} bad inputs rejected')
