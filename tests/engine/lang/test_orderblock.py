"""Finding the order block in a mail body as mail clients send it, and reading its header."""

from __future__ import annotations

from engine.core.orderblock import NO_BLOCK, NO_END, WRITTEN_BELOW_END, Header, OrderBlock, find_block


def texts(block: OrderBlock) -> list[str]:
    return [line.text for line in block.lines]


def test_the_block_runs_from_game_to_end_and_ignores_what_is_around_it() -> None:
    # Given a greeting, a block and a signature
    body = "Hi GM,\n\nGAME g1\nPLAYER P1\nTURN 4\nCODE abc\nMOVE W3 1421\nEND\nCheers\n-- \nAnn\n"
    # When the block is found
    block = find_block(body)
    # Then only the order lines are kept, with their line numbers in the mail, and the header is read
    assert block.found
    assert block.header == Header(game="g1", player="P1", turn=4, code="abc")
    assert [(line.number, line.text) for line in block.lines] == [(7, "MOVE W3 1421")]
    assert block.problems == ()


def test_a_mail_without_a_game_line_has_no_block_and_one_problem_for_the_whole_mail() -> None:
    block = find_block("Please move W3 to Babylon, thanks!\nMOVE W3 Babylon\n")
    assert not block.found
    assert [(p.line, p.message) for p in block.problems] == [(None, NO_BLOCK)]


def test_an_empty_mail_has_no_block() -> None:
    assert not find_block("").found


def test_without_end_the_orders_run_to_the_signature_with_a_warning() -> None:
    # Given a block that is never closed, followed by a signature
    block = find_block("GAME g1\nSCRAP W3\n-- \nAnn Smith\n+44 123\n")
    # Then the orders stop at the signature, and the player is warned
    assert texts(block) == ["SCRAP W3"]
    assert [(p.message, p.severity) for p in block.problems] == [(NO_END, "warning")]


def test_comments_blank_lines_and_extra_spaces_are_dropped() -> None:
    block = find_block("GAME g1\n\n   MOVE   W3\t1421   # two hexes\n# only a comment\nEND")
    assert texts(block) == ["MOVE W3 1421"]
    assert block.lines[0].raw == "   MOVE   W3\t1421   # two hexes"


def test_code_left_as_the_sheet_placeholder_is_not_given() -> None:
    assert find_block("GAME g\nCODE ________\nEND").header.code is None
    assert find_block("GAME g\nCODE\nEND").header.code is None
    assert find_block("GAME g\nCODE: x7Y_2\nEND").header.code == "x7Y_2"


def test_add_and_check_are_header_flags() -> None:
    header = find_block("GAME g\nadd\nCheck\nEND").header
    assert header.add and header.check


def test_header_keywords_are_case_insensitive_and_take_a_colon() -> None:
    header = find_block("game: g7\nPlayer: Ann Smith\nturn: 12\nEND").header
    assert header == Header(game="g7", player="Ann Smith", turn=12)


def test_crlf_and_cr_line_ends_count_lines_as_received() -> None:
    block = find_block("GAME g\r\nSCRAP W3\r\rSCRAP W4\rEND\r\n")
    assert [(line.number, line.text) for line in block.lines] == [(2, "SCRAP W3"), (4, "SCRAP W4")]


def test_nbsp_tabs_and_smart_punctuation_are_normalised() -> None:
    # Given what word processors and phones put in: NBSP, tabs, en dashes, a zero-width space
    block = find_block("GAME\u00a0g\nECM\u00a0W3\tFIRST\u2013COME\u200b\nEND")
    assert texts(block) == ["ECM W3 FIRST-COME"]


def test_windows_1252_text_decoded_as_such_reads_the_same() -> None:
    # Given a mail sent in Windows-1252 with smart quotes and NBSP, decoded by the mail reader
    body = "Hello \x93friends\x94\r\nGAME g\r\nMOVE W3\xa01421 \x96 1522\r\nEND\r\n".encode("latin-1").decode(
        "cp1252"
    )
    assert texts(find_block(body)) == ["MOVE W3 1421 - 1522"]


def test_replying_in_place_reads_quoted_sheet_lines_and_own_lines_together() -> None:
    # Given a reply to the orders sheet: the sheet quoted, the player's orders written in between
    body = (
        "Here you go.\n\n"
        "On Mon, 3 Mar 2025, WarpMail wrote:\n"
        "> GAME g1\n"
        "> PLAYER P1\n"
        "> TURN 4\n"
        "> CODE ____\n"
        "CODE k3y\n"
        "> # W3 at Ur, 2 MP\n"
        "MOVE W3 1421\n"
        ">> SCRAP W4\n"
        "> END\n"
        "> Thanks for playing\n"
    )
    block = find_block(body)
    # Then the quote markers are removed up to END, at any depth
    assert block.header == Header(game="g1", player="P1", turn=4, code="k3y")
    assert texts(block) == ["MOVE W3 1421", "SCRAP W4"]
    assert block.problems == ()


def test_quote_markers_with_and_without_spaces_are_removed() -> None:
    block = find_block(">GAME g\n> > SCRAP W3\n>>SCRAP W4\n> >> SCRAP S20\n>END")
    assert texts(block) == ["SCRAP W3", "SCRAP W4", "SCRAP S20"]


def test_top_posted_orders_win_over_the_quoted_history_below() -> None:
    # Given new orders above, and the previous mail quoted below with its own GAME line
    body = "GAME g1\nTURN 5\nSCRAP W3\nEND\n\n> GAME g1\n> TURN 4\n> MOVE W3 1421\n> END\n"
    block = find_block(body)
    assert block.header.turn == 5
    assert texts(block) == ["SCRAP W3"]


def test_unquoted_block_without_end_skips_quoted_history_and_stops_at_outlook_separator() -> None:
    # Given Outlook top-posting: no END, then the "Original Message" with the old sheet unquoted
    body = "GAME g1\nSCRAP W3\n\n-----Original Message-----\nFrom: WarpMail\nGAME g1\nMOVE W3 1421\nEND\n"
    block = find_block(body)
    assert texts(block) == ["SCRAP W3"]
    assert [p.message for p in block.problems] == [NO_END]


def test_a_line_saying_game_in_prose_does_not_start_the_block() -> None:
    block = find_block("Game on, see you there!\nGAME g2\nSCRAP W3\nEND")
    assert block.header.game == "g2"
    assert texts(block) == ["SCRAP W3"]


def test_problem_text_is_the_line_as_written_without_quote_markers() -> None:
    (problem,) = find_block("> GAME g\n>   TURN  five  # oops\n> END").problems
    assert (problem.line, problem.text) == (2, "TURN  five  # oops")


def test_a_huge_turn_number_is_not_a_number() -> None:
    block = find_block("GAME g\nTURN " + "9" * 5000 + "\nEND")
    assert block.header.turn is None
    assert len(block.problems) == 1


def test_lines_written_below_the_quoted_end_are_not_read_and_the_player_is_warned() -> None:
    # Given a bottom-posted reply: the quoted sheet, then the player's orders below its END
    block = find_block("> GAME g1\n> TURN 4\n> END\n\nMOVE W3 1421\nEND\n-- \nAnn\n")
    # Then the orders below are not read, and the warning points at the first of them
    assert texts(block) == []
    assert [(p.line, p.text, p.message, p.severity) for p in block.problems] == [
        (5, "MOVE W3 1421", WRITTEN_BELOW_END, "warning")
    ]
