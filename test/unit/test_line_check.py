"""The ROS guarded line's contact rule: which contacts refuse it, which states are asked."""

from types import SimpleNamespace

from mcp_ros_bridge.backends.ros.line_contacts import arm_contacts, spread

HAND = frozenset({'panda_hand', 'panda_leftfinger', 'panda_rightfinger'})


def contact(b1: str, t1: int, b2: str, t2: int) -> SimpleNamespace:
    return SimpleNamespace(contact_body_1=b1, body_type_1=t1, contact_body_2=b2, body_type_2=t2)


def test_only_robot_links_outside_the_hand_refuse() -> None:
    contacts = [contact('panda_leftfinger', 0, 'table', 1),  # the hand: allowed
                contact('box', 2, 'table', 1),               # the held object: the hand's
                contact('panda_link5', 0, 'table', 1),       # an arm link: refused
                contact('panda_link3', 0, 'panda_hand', 0)]  # arm against hand: refused
    assert arm_contacts(contacts, HAND) == ['panda_link5<->table', 'panda_link3<->panda_hand']
    assert arm_contacts(contacts[:2], HAND) == []


def test_states_are_spread_evenly_with_both_ends() -> None:
    assert spread(5) == [0, 1, 2, 3, 4]
    picked = spread(101, most=5)
    assert picked == [0, 25, 50, 75, 100]
    assert spread(0) == []
