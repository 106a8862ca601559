"""The jobs of axis.at_pot.enumerate_pots: every leaf once, leaves of one mixed pattern
(the same frequencies strictly inside (0, 1)) in one job, jobs of about CHUNK leaves."""
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.solvers.symbolic.axis.at_pot import chunks


def _mixed(case: str) -> str:
    return "".join("c" if x == "c" else "." for x in case)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=4, max_size=4), max_size=120),
       st.integers(1, 40))
def test_chunks_partition_the_leaves_and_keep_mixed_patterns_together(cases, size):
    jobs = chunks(cases, size)
    flat = [k for job in jobs for k in job]
    assert sorted(flat) == list(range(len(cases)))  # each leaf exactly once
    where = {k: j for j, job in enumerate(jobs) for k in job}
    for a in range(len(cases)):
        for b in range(len(cases)):
            if _mixed(cases[a]) == _mixed(cases[b]):
                assert where[a] == where[b]
    for job in jobs:  # over size only when one pattern alone is larger
        assert len(job) <= size or len({_mixed(cases[k]) for k in job}) == 1
        assert list(job) == sorted(job, key=lambda k: (_mixed(cases[k]), k))


def test_pairs_that_differ_in_pure_actions_share_a_job():
    """kuhn3-full-simplified at P = 5: leaves 846 and 879 of the walk differ only in 'ab'
    against 'ba' and share a 13 s block; consecutive jobs of 32 split them."""
    cases = ["cccc" + "".join(p) for p in
             (("a", "b"), ("b", "a"), ("a", "c"), ("b", "c"), ("c", "a"))] * 10
    jobs = chunks(cases, 4)
    where = {k: j for j, job in enumerate(jobs) for k in job}
    assert where[0] == where[1] and where[10] == where[11]
