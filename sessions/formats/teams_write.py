"""A parsed teams event as a USEBIO 1.2 teams results file (the other direction of teams.py).

Written as TeamsScorer writes them: EVENT_TYPE="TEAMS" with BOARD_SCORING_METHOD and
MATCH_SCORING_METHOD, one SESSION holding PARTICIPANTS (each TEAM with its TOTAL_SCORE,
PLACE and players in two PAIRs numbered "team-1-2" and "team-3-4", more players in a
third pair) and then the MATCH elements, each BOARD with TEAM's IMPs and a
TRAVELLER_LINE per room whose DIRECTION says where TEAM's pair sat, with the two
pairs' numbers and its children in the order the pairs files agree on.

What does not survive a round trip: the pairs' cross-IMPs (not written), a team's
sixth player's pairing (the pairs are made up in seat order).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sessions.formats.teams import ParsedMatch, ParsedRoom, ParsedTeam, ParsedTeamEvent
from sessions.formats.usebio_write import DOCTYPE, NO_MASTER_POINTS, XML_DECLARATION, _leaf, _optional, _usebio_date
from sessions.formats.writing import PROGRAM_NAME, two_decimals

SCORING_ELEMENTS = {"imps": ("IMPS", "VPS"), "bam": ("PAB", "PAB")}


def write_usebio_teams(event: ParsedTeamEvent) -> bytes:
    """The teams event as USEBIO 1.2 XML bytes."""
    root = ET.Element("USEBIO", Version="1.2")
    _leaf(ET.SubElement(root, "CLUB"), "CLUB_NAME", event.club)
    element = ET.SubElement(root, "EVENT", EVENT_TYPE="TEAMS")
    board_method, match_method = SCORING_ELEMENTS[event.scoring]
    _leaf(element, "BOARD_SCORING_METHOD", board_method)
    _leaf(element, "MATCH_SCORING_METHOD", match_method)
    _leaf(element, "PROGRAM_NAME", PROGRAM_NAME)
    _leaf(element, "EVENT_DESCRIPTION", event.title)
    _leaf(element, "DATE", _usebio_date(event.date))
    _leaf(element, "MPS_AWARDED_FLAG", NO_MASTER_POINTS)
    session = ET.SubElement(element, "SESSION", SESSION_ID="1")
    participants = ET.SubElement(session, "PARTICIPANTS")
    for team in event.teams:
        _team(participants, team)
    for match in event.matches:
        _match(session, match)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return "\n".join([XML_DECLARATION, DOCTYPE, body, ""]).encode("utf-8")


def _team(parent: ET.Element, team: ParsedTeam) -> None:
    element = ET.SubElement(parent, "TEAM", TEAM_ID=team.key, TEAM_NAME=team.name)
    _optional(element, "TOTAL_SCORE", two_decimals(team.published_total))
    _optional(element, "WINS_OR_DRAWS", None if team.published_wins is None else str(team.published_wins))
    _optional(element, "PLACE", team.published_place)
    for start in range(0, len(team.players), 2):
        pair = ET.SubElement(element, "PAIR")
        _leaf(pair, "PAIR_NUMBER", f"{team.key}-{start + 1}-{start + 2}")
        for player in team.players[start:start + 2]:
            player_element = ET.SubElement(pair, "PLAYER")
            _leaf(player_element, "PLAYER_NAME", player.name)
            _optional(player_element, "NATIONAL_ID_NUMBER", player.national_id)


def _match(parent: ET.Element, match: ParsedMatch) -> None:
    element = ET.SubElement(parent, "MATCH")
    _leaf(element, "ROUND_NUMBER", str(match.round))
    _leaf(element, "TEAM", match.team)
    _leaf(element, "OPPOSING_TEAM", match.opponents)
    _leaf(element, "START_BOARD_NUMBER", str(match.first_board))
    _leaf(element, "END_BOARD_NUMBER", str(match.last_board))
    _optional(element, "TEAM_SCORE", two_decimals(match.published_team_score))
    _optional(element, "OPPOSING_TEAM_SCORE", two_decimals(match.published_opponents_score))
    for board in match.boards:
        board_element = ET.SubElement(element, "BOARD")
        _leaf(board_element, "BOARD_NUMBER", str(board.number))
        _optional(board_element, "IMPS", two_decimals(board.published_imps))
        # TEAM's pair sits NS in the open room and EW in the closed one; the pairs are
        # named as PARTICIPANTS names them ("team-1-2" NS, "team-3-4" EW), as TeamsScorer does.
        seats = (("NS", board.open_room, match.team, match.opponents),
                 ("EW", board.closed_room, match.opponents, match.team))
        for direction, room, ns_team, ew_team in seats:
            if room is not None:
                _line(board_element, direction, room, f"{ns_team}-1-2", f"{ew_team}-3-4")


def _line(parent: ET.Element, direction: str, room: ParsedRoom, ns_pair: str, ew_pair: str) -> None:
    element = ET.SubElement(parent, "TRAVELLER_LINE")
    _leaf(element, "DIRECTION", direction)
    _leaf(element, "NS_PAIR_NUMBER", ns_pair)
    _leaf(element, "EW_PAIR_NUMBER", ew_pair)
    passed = room.score == "PASS"
    _optional(element, "CONTRACT", "PASS" if passed else room.contract)
    _optional(element, "PLAYED_BY", room.declarer)
    _optional(element, "LEAD", room.lead)
    _optional(element, "TRICKS", None if room.tricks is None else str(room.tricks))
    _leaf(element, "SCORE", "0" if passed else room.score)  # passed out: CONTRACT PASS, SCORE 0
