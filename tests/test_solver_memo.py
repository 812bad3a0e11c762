"""The suite's kept solver answers (tests/solver_memo.py) are DDS's own."""

import endplay.dds
from endplay.types import Deal

from tests.solver_memo import real_solver

DEALS = ["N:AKQ2.543.AK2.543 JT98.76.QJT.QJT9 543.AKQ2.543.AK2 76.JT98.9876.876",
         "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6.5432.5432.5432 5432.876.876.876"]


def tricks(table) -> list[list[int]]:
    return table.to_list()


def test_a_kept_answer_is_the_solvers_own():
    assert endplay.dds.calc_dd_table.kept_by_tests  # installed for the whole suite (tests/conftest.py)
    first = endplay.dds.calc_dd_table(Deal(DEALS[0]))
    assert endplay.dds.calc_dd_table(Deal(DEALS[0])) is first  # kept
    with real_solver():
        assert tricks(endplay.dds.calc_dd_table(Deal(DEALS[0]))) == tricks(first)


def test_a_batch_gives_each_deal_its_own_answer_in_order_seen_or_not():
    seen = endplay.dds.calc_all_tables([Deal(DEALS[1])])
    both = endplay.dds.calc_all_tables([Deal(DEALS[0]), Deal(DEALS[1]), Deal(DEALS[0])])
    assert both[1] is seen[0]
    with real_solver():
        real = endplay.dds.calc_all_tables([Deal(DEALS[0]), Deal(DEALS[1]), Deal(DEALS[0])])
    assert [tricks(t) for t in both] == [tricks(t) for t in real]
    assert tricks(both[0]) != tricks(both[1])
