"""Python's own csv module reading a CSV file, for tests that check Faultline's CSV against it.

Usage: csv_rows.py FILE
Prints the rows as a JSON list of objects keyed by the header row.
"""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as file:
    print(json.dumps(list(csv.DictReader(file))))
