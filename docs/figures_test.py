#!/usr/bin/python3 -B
"""docs/figures.md's tables are in the form docs/figures.py writes: each
one read and written again is the same text, so a run of the script keeps
every row it does not measure; and a measured row replaces its figure's."""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figures  # noqa: E402

BLOCK = re.compile(r"<!-- figures: (\w+) -->\n(.*?)\n<!-- end figures -->",
                   re.S)


class FiguresTest(unittest.TestCase):

    def setUp(self):
        with open(figures.FIGURES_MD) as f:
            self.blocks = dict(BLOCK.findall(f.read()))

    def test_a_table_for_each_area(self):
        self.assertEqual(sorted(self.blocks), sorted(figures.AREAS))

    def test_each_table_is_written_back_the_same(self):
        for area, table in self.blocks.items():
            self.assertEqual(figures.table_text(figures.merge(table, [])),
                             table, area)

    def test_a_measured_row_replaces_its_figure_and_keeps_the_others(self):
        table = self.blocks["tables"]
        kept = figures.merge(table, [])
        label = kept[0][0]
        row = (label, "1 ns", "a | b", "m", "c")
        merged = figures.merge(table, [row, ("new", "2 ns", "x", "m", "c")])
        self.assertEqual(merged[0], row)
        self.assertEqual(merged[1:-1], kept[1:])
        self.assertEqual(merged[-1][0], "new")
        again = figures.merge(figures.table_text(merged), [])
        self.assertEqual(again[0], row)  # the '|' in a command survives


if __name__ == "__main__":
    unittest.main()
