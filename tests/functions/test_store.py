"""The store (functions/store): DynamoDB single table + S3 for large states, under moto."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError

from functions.store import (
    INLINE_LIMIT,
    GameExistsError,
    GameNotFoundError,
    GameRecord,
    GameSetup,
    KeptResults,
    MailLogEntry,
    NewSubmission,
    PlayerRecord,
    Schedule,
    Store,
    awaited,
    provision,
)
from functions.store.idempotency import IDEMPOTENCY_PARTITION, idempotency_layer
from functions.store.store import PlayerNotFoundError
from tests.functions.conftest import Aws

NOW = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)

# --- Builders ---


def a_game(game_id: str = "g1", **changes: Any) -> GameRecord:
    fields: dict[str, Any] = {"game_id": game_id, "title": "Test game", "status": "running", "version": 0}
    return GameRecord(**(fields | changes))


def a_player(player_id: str, game_id: str = "g1", address: str | None = None) -> PlayerRecord:
    return PlayerRecord(
        game_id=game_id,
        player_id=player_id,
        name=f"Player {player_id}",
        address=address or f"{player_id.lower()}@example.org",
        code_hash="hashed",
    )


def a_submission(
    player_id: str, scope: str = "turn:1", game_id: str = "g1", body: str = "MOVE"
) -> NewSubmission:
    return NewSubmission(
        game_id=game_id,
        player_id=player_id,
        scope=scope,
        received_at=NOW,
        message_id=f"<{player_id}.{scope}.{body}@example.org>",
        body=body,
        orders_json=json.dumps({"orders": body}),
    )


def state_json(size: int = 100, mark: str = "a") -> str:
    return json.dumps({"mark": mark, "padding": "x" * size})


def created(
    store: Store, game: GameRecord | None = None, players: tuple[str, ...] = ("P1", "P2")
) -> GameRecord:
    game = game or a_game()
    store.create_game(game, [a_player(p, game.game_id) for p in players], state_json())
    return game


def raw_item(aws: Aws, pk: str, sk: str) -> dict[str, Any]:
    item = aws.dynamodb.get_item(TableName=aws.resources.table, Key={"PK": {"S": pk}, "SK": {"S": sk}})
    return dict(item["Item"])


def state_objects(aws: Aws) -> list[str]:
    listed = aws.s3.list_objects_v2(Bucket=aws.resources.state_bucket)
    return [o["Key"] for o in listed.get("Contents", [])]


# --- Games and players ---


def test_a_created_game_reads_back_with_its_players_and_first_state(store: Store) -> None:
    game = created(store)
    assert store.game("g1") == game
    assert [p.player_id for p in store.players("g1")] == ["P1", "P2"]
    assert store.state("g1") == (game, state_json())
    assert store.games() == [game]


def test_open_games_are_only_those_open_for_sign_up(store: Store) -> None:
    created(store)
    signing_up = [created(store, a_game(game_id, status="open"), ()) for game_id in ("g3", "g2")]
    assert store.open_games() == sorted(signing_up, key=lambda g: g.game_id)


def test_an_unknown_game_is_none_and_its_state_is_not_found(store: Store) -> None:
    assert store.game("nope") is None
    with pytest.raises(GameNotFoundError):
        store.state("nope")


def test_creating_a_game_twice_is_refused_and_changes_nothing(store: Store) -> None:
    game = created(store)
    with pytest.raises(GameExistsError):
        store.create_game(a_game(title="Other"), [a_player("P9")], state_json(mark="b"))
    assert store.game("g1") == game
    assert [p.player_id for p in store.players("g1")] == ["P1", "P2"]


def test_players_of_another_game_cannot_be_created_with_a_game(store: Store) -> None:
    with pytest.raises(ValueError, match="not in game g1"):
        store.create_game(a_game(), [a_player("P1", game_id="g2")], state_json())


def test_players_are_found_by_address_in_any_case_across_games(store: Store) -> None:
    created(store, a_game("g1"), ("P1",))
    created(store, a_game("g2"), ())
    assert store.add_player(a_player("Blue", "g2", address="P1@Example.org"))
    found = store.players_by_address(" P1@EXAMPLE.ORG ")
    assert sorted((p.game_id, p.player_id) for p in found) == [("g1", "P1"), ("g2", "Blue")]
    assert all(p.address == "p1@example.org" for p in found)


def test_a_player_id_cannot_join_a_game_twice(store: Store) -> None:
    created(store)
    assert not store.add_player(a_player("P1", address="new@example.org"))
    assert store.players("g1")[0].address == "p1@example.org"


def test_identifiers_may_not_contain_the_key_separator() -> None:
    with pytest.raises(ValidationError):
        a_game("g#1")
    with pytest.raises(ValidationError):
        a_player("P#1")


def test_awaiting_entries_name_a_scope_and_a_player() -> None:
    assert a_game(awaiting=(awaited("turn:5", "P1"),)).awaited_scopes() == {"turn:5": frozenset({"P1"})}
    with pytest.raises(ValidationError, match="scope"):
        a_game(awaiting=("P1",))


# --- Times ---


def test_times_are_kept_as_iso_strings_in_utc(store: Store, aws: Aws) -> None:
    paris = timezone(timedelta(hours=1))
    created(store, a_game(deadline=datetime(2025, 3, 1, 19, 0, tzinfo=paris)))
    assert raw_item(aws, "GAME#g1", "META")["deadline"] == {"S": "2025-03-01T18:00:00+00:00"}
    game = store.game("g1")
    assert game is not None and game.deadline == NOW and game.deadline.tzinfo == UTC


def test_a_time_without_a_timezone_is_refused() -> None:
    with pytest.raises(ValidationError):
        a_game(deadline=datetime(2025, 3, 1, 18, 0))


# --- Submissions ---


def test_every_version_of_a_submission_is_kept_and_the_latest_wins(store: Store) -> None:
    created(store)
    versions = [store.add_submission(a_submission("P1", body=body)).version for body in ("A", "B", "C")]
    assert versions == [1, 2, 3]
    assert [s.body for s in store.submissions("g1", "turn:1", "P1")] == ["A", "B", "C"]
    latest = store.latest_submissions("g1", "turn:1")
    assert list(latest) == [("P1", "turn:1")]
    assert (latest["P1", "turn:1"].body, latest["P1", "turn:1"].version) == ("C", 3)


def test_versions_count_per_player_and_scope(store: Store) -> None:
    created(store)
    assert store.add_submission(a_submission("P1", "turn:1")).version == 1
    assert store.add_submission(a_submission("P2", "turn:1")).version == 1
    assert store.add_submission(a_submission("P1", "turn:2")).version == 1


def test_a_scope_prefix_selects_that_scope_and_those_under_it_only(store: Store) -> None:
    created(store)
    combats = ("combat:5/P1:2223:1", "combat:5/P1:2223:2", "combat:5/P1:22230:1", "combat:5/P2:2223:1")
    for scope in ("turn:5", "turn:50", *combats):
        store.add_submission(a_submission("P1", scope))
    assert {scope for _, scope in store.latest_submissions("g1", "turn:5")} == {"turn:5"}
    assert {scope for _, scope in store.latest_submissions("g1", "combat:5/P1:2223")} == {
        "combat:5/P1:2223:1",
        "combat:5/P1:2223:2",
    }
    assert len(store.latest_submissions("g1", "combat:")) == 4
    assert len(store.latest_submissions("g1")) == 6


def test_a_submission_passed_with_a_version_gets_the_next_one(store: Store) -> None:
    created(store)
    first = store.add_submission(a_submission("P1"))
    again = store.add_submission(
        first.model_copy(update={"version": 99, "message_id": "<other@example.org>"})
    )
    assert again.version == 2


def test_a_mail_stored_again_gets_its_own_version_back_and_never_undoes_a_later_one(store: Store) -> None:
    created(store)
    first = store.add_submission(a_submission("P1", body="MOVE"))
    later = store.add_submission(a_submission("P1", body="BUILD"))
    retried = store.add_submission(a_submission("P1", body="MOVE"))
    assert (first.version, later.version, retried) == (1, 2, first)
    assert [s.version for s in store.submissions("g1", "turn:1", "P1")] == [1, 2]
    assert store.latest_submissions("g1")[("P1", "turn:1")].body == "BUILD"


# --- States, versions, commits ---


def test_a_commit_is_a_new_version_and_every_version_is_kept(store: Store) -> None:
    game = created(store)
    assert store.commit(game.model_copy(update={"turn": 1}), state_json(mark="b"), expected_version=0)
    current, state = store.state("g1")
    assert (current.version, current.turn, json.loads(state)["mark"]) == (1, 1, "b")
    assert store.game("g1") == current
    old, old_state = store.state("g1", version=0)
    assert (old.version, old.turn, json.loads(old_state)["mark"]) == (0, 0, "a")


def test_a_commit_from_a_stale_version_writes_nothing(store: Store) -> None:
    game = created(store)
    assert store.commit(game, state_json(mark="b"), expected_version=0)
    assert not store.commit(game, state_json(mark="c"), expected_version=0)
    assert json.loads(store.state("g1")[1])["mark"] == "b"
    with pytest.raises(GameNotFoundError):
        store.state("g1", version=2)


def test_of_two_stores_committing_the_same_version_exactly_one_succeeds(store: Store, aws: Aws) -> None:
    game = created(store)
    first = Store(aws.resources.settings(), aws.dynamodb, aws.s3)
    second = Store(aws.resources.settings(), aws.dynamodb, aws.s3)
    seen_by_first, _ = first.state("g1")
    seen_by_second, _ = second.state("g1")
    assert seen_by_first.version == seen_by_second.version == game.version
    results = [
        first.commit(seen_by_first.model_copy(update={"turn": 1}), state_json(mark="first"), game.version),
        second.commit(seen_by_second.model_copy(update={"turn": 1}), state_json(mark="second"), game.version),
    ]
    assert results == [True, False]
    assert json.loads(store.state("g1")[1])["mark"] == "first"


def test_a_large_state_goes_to_the_state_bucket_transparently(store: Store, aws: Aws) -> None:
    game = created(store)
    big = state_json(INLINE_LIMIT + 1)
    assert store.commit(game, big, expected_version=0)
    assert store.state("g1") == (game.model_copy(update={"version": 1}), big)
    assert state_objects(aws) == [raw_item(aws, "GAME#g1", "STATE#00000001")["state_key"]["S"]]
    assert "state" not in raw_item(aws, "GAME#g1", "STATE#00000001")


def test_a_small_state_stays_inline(store: Store, aws: Aws) -> None:
    created(store)
    assert raw_item(aws, "GAME#g1", "STATE#00000000")["state"] == {"S": state_json()}
    assert state_objects(aws) == []


def test_updating_a_game_keeps_its_state_in_a_new_version(store: Store) -> None:
    game = created(store)
    assert store.update_game(game.model_copy(update={"parked": "engine failed"}), expected_version=0)
    current, state = store.state("g1")
    assert (current.version, current.parked, state) == (1, "engine failed", state_json())
    assert not store.update_game(game, expected_version=0)


def test_a_rollback_makes_an_old_version_current_as_a_new_one(store: Store) -> None:
    game = created(store)
    store.commit(game.model_copy(update={"turn": 1}), state_json(mark="b"), 0)
    assert store.rollback("g1", to_version=0, expected_version=1)
    current, state = store.state("g1")
    assert (current.version, current.turn, json.loads(state)["mark"]) == (2, 0, "a")
    assert store.state("g1", version=1)[0].turn == 1


# --- Due games ---


def test_games_are_due_when_a_deadline_has_passed(store: Store) -> None:
    created(store, a_game("late", deadline=NOW - HOUR))
    created(store, a_game("round", round_deadline=NOW - HOUR, deadline=NOW + HOUR))
    created(store, a_game("later", deadline=NOW + HOUR))
    created(store, a_game("open", status="open", deadline=NOW - HOUR))
    created(store, a_game("paused", status="paused", deadline=NOW - HOUR))
    created(store, a_game("parked", parked="crashed twice", deadline=NOW - HOUR))
    created(store, a_game("timeless"))
    assert [g.game_id for g in store.due_games(NOW)] == ["late", "round"]
    assert [g.game_id for g in store.due_games(NOW + 2 * HOUR)] == ["late", "later", "round"]


def test_an_early_game_is_due_once_every_awaited_order_is_in(store: Store) -> None:
    awaiting = (awaited("turn:1", "P1"), awaited("turn:1", "P2"))
    created(store, a_game(awaiting=awaiting, deadline=NOW + HOUR))
    store.add_submission(a_submission("P1"))
    assert store.due_games(NOW) == []
    store.add_submission(a_submission("P2"))
    assert [g.game_id for g in store.due_games(NOW)] == ["g1"]


def test_a_game_without_early_processing_waits_for_its_deadline(store: Store) -> None:
    created(store, a_game(awaiting=(awaited("turn:1", "P1"),), early=False, deadline=NOW + HOUR))
    store.add_submission(a_submission("P1"))
    assert store.due_games(NOW) == []
    assert [g.game_id for g in store.due_games(NOW + HOUR)] == ["g1"]


def test_a_combat_round_is_due_as_soon_as_both_sides_are_in_even_without_early(store: Store) -> None:
    scope = "combat:3/P1:2223:1"
    awaiting = (awaited(scope, "P1"), awaited(scope, "P2"), awaited("combat:3/P1:1010:1", "P1"))
    created(store, a_game(awaiting=awaiting, early=False, round_deadline=NOW + HOUR))
    store.add_submission(a_submission("P1", scope))
    store.add_submission(a_submission("P2", scope))
    assert [g.game_id for g in store.due_games(NOW)] == ["g1"]


def test_orders_in_before_the_commit_that_awaits_them_make_the_game_due(store: Store) -> None:
    game = created(store)
    store.add_submission(a_submission("P1", "turn:2"))
    assert store.due_games(NOW) == []
    assert store.commit(game.model_copy(update={"awaiting": (awaited("turn:2", "P1"),)}), state_json(), 0)
    assert [g.game_id for g in store.due_games(NOW)] == ["g1"]


def test_a_commit_takes_a_processed_game_out_of_the_due_index(store: Store) -> None:
    game = created(store, a_game(awaiting=(awaited("turn:1", "P1"),)))
    store.add_submission(a_submission("P1"))
    assert store.due_games(NOW) != []
    next_turn = game.model_copy(
        update={"turn": 2, "awaiting": (awaited("turn:2", "P2"),), "deadline": NOW + HOUR}
    )
    assert store.commit(next_turn, state_json(), 0)
    assert store.due_games(NOW) == []


def test_a_parked_game_is_never_due(store: Store) -> None:
    game = created(store, a_game(deadline=NOW - HOUR))
    assert store.update_game(game.model_copy(update={"parked": "failed 3 times"}), 0)
    assert store.due_games(NOW) == []


# --- Mail log and seen messages ---


def test_the_mail_log_of_a_game_is_in_time_order_and_expires(store: Store, aws: Aws) -> None:
    later = MailLogEntry(
        game_id="g1", at=NOW + HOUR, direction="out", address="p1@example.org", subject="Results"
    )
    earlier = MailLogEntry(
        game_id="g1", at=NOW, direction="in", address="p1@example.org", subject="Orders", key="k"
    )
    store.log_mail(later)
    store.log_mail(earlier)
    store.log_mail(earlier)
    assert store.mail_log("g1") == [earlier, later]
    items = aws.dynamodb.scan(TableName=aws.resources.table)["Items"]
    expiries = [int(i["expires"]["N"]) for i in items if i["SK"]["S"].startswith("LOG#")]
    assert expiries == [
        int((NOW + timedelta(days=400)).timestamp()),
        int((NOW + HOUR + timedelta(days=400)).timestamp()),
    ]


def test_mail_that_names_no_game_is_logged_apart(store: Store) -> None:
    stray = MailLogEntry(
        game_id=None, at=NOW, direction="rejected", address="x@example.org", subject="?", reason="no game"
    )
    store.log_mail(stray)
    assert store.mail_log(None) == [stray]
    assert store.mail_log("g1") == []


LEASE = timedelta(seconds=45)


def test_a_claim_is_won_once_and_completed_for_good(store: Store, aws: Aws) -> None:
    claim = store.claim("out/1", NOW, LEASE, {"code": "C"})
    assert claim is not None
    assert (claim.state, claim.at, claim.lease_until, claim.data) == (
        "in_progress",
        NOW,
        NOW + LEASE,
        {"code": "C"},
    )
    assert store.claim("out/1", NOW + timedelta(seconds=10), LEASE) is None, "held: its lease runs"
    store.complete("out/1")
    assert store.claim("out/1", NOW + timedelta(days=3650), LEASE) is None, "done: never again"
    done = store.claimed("out/1")
    assert done is not None and (done.state, done.lease_until, done.data) == ("done", None, {})
    assert "expires" not in raw_item(aws, "CLAIM#out/1", "CLAIM"), "no TTL: a done claim outlives any game"
    assert store.done(["out/1", "out/2"]) == {"out/1"}


def test_a_claim_past_its_lease_is_taken_over_once_keeping_its_first_time_and_data(store: Store) -> None:
    assert store.claim("out/1", NOW, LEASE, {"code": "C"}) is not None
    later = NOW + LEASE + timedelta(seconds=1)
    taken = store.claim("out/1", later, LEASE, {"code": "other"})
    assert taken is not None
    assert (taken.at, taken.lease_until, taken.attempt, taken.data) == (NOW, later + LEASE, 2, {"code": "C"})
    assert store.claim("out/1", later, LEASE) is None, "the second taker loses"


def test_two_takers_of_an_expired_claim_never_both_win(store: Store) -> None:
    assert store.claim("out/1", NOW, LEASE) is not None
    stale = store.claimed("out/1")
    later = NOW + LEASE * 2
    assert store.claim("out/1", later, LEASE) is not None
    # The second taker read the claim before the first took it: its conditional write fails.
    original = store.claimed
    store.claimed = lambda key: stale  # type: ignore[method-assign]
    try:
        assert store.claim("out/1", later, LEASE) is None
    finally:
        store.claimed = original  # type: ignore[method-assign]


def test_a_released_claim_is_free_at_once_and_a_done_one_is_never_released(store: Store) -> None:
    long_key = "in/" + "x" * 900
    assert store.claim(long_key, NOW, LEASE) is not None
    store.release(long_key)
    assert store.claim(long_key, NOW, LEASE) is not None
    store.complete(long_key)
    store.release(long_key)
    assert store.done([long_key]) == {long_key}


def test_mail_identities_find_another_raw_mail_but_not_the_same_one(store: Store) -> None:
    assert store.identify(["<a@x>", "dkim:x.org:bh1"], "inbound/1", "dkim:x.org:bh1") is None
    assert store.identify(["<a@x>", "dkim:x.org:bh1"], "inbound/1", "dkim:x.org:bh1") is None, "a retry"
    earlier = store.identify(["<new@x>", "dkim:x.org:bh1"], "inbound/2", "dkim:x.org:bh1")
    assert earlier is not None and (earlier.identity, earlier.owner) == ("dkim:x.org:bh1", "inbound/1")
    assert store.identify(["<new@x>"], "inbound/3", "sha256:z") is not None, "registered by the duplicate"


# --- The table ---


def test_the_table_is_on_demand_with_ttl_on_expires_and_provisioning_again_keeps_data(
    store: Store, aws: Aws
) -> None:
    created(store)
    provision(aws.resources, aws.dynamodb, aws.s3)
    table = aws.dynamodb.describe_table(TableName=aws.resources.table)["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert {i["IndexName"] for i in table["GlobalSecondaryIndexes"]} == {"GSI1", "GSI2"}
    ttl = aws.dynamodb.describe_time_to_live(TableName=aws.resources.table)["TimeToLiveDescription"]
    assert (ttl["TimeToLiveStatus"], ttl["AttributeName"]) == ("ENABLED", "expires")
    assert store.game("g1") is not None


def test_powertools_idempotency_records_live_in_the_same_table(aws: Aws) -> None:
    from aws_lambda_powertools.utilities.idempotency import idempotent_function

    calls: list[str] = []

    @idempotent_function(
        data_keyword_argument="message",
        persistence_store=idempotency_layer(aws.resources.settings(), aws.dynamodb),
    )
    def handle(message: dict[str, str]) -> str:
        calls.append(message["id"])
        return message["id"].upper()

    assert handle(message={"id": "a"}) == "A"
    assert handle(message={"id": "a"}) == "A"
    assert calls == ["a"]
    items = aws.dynamodb.scan(TableName=aws.resources.table)["Items"]
    assert [i["PK"]["S"] for i in items] == [IDEMPOTENCY_PARTITION]
    assert "expires" in items[0]


# --- Deadline periods and kept results ---


def test_a_game_keeps_its_own_deadline_periods(store: Store) -> None:
    game = created(store, a_game(turn_hours=0.5, round_hours=0.25))
    assert store.game("g1") == game
    assert store.state("g1")[0].round_period == timedelta(minutes=15)
    assert a_game().turn_period == timedelta(hours=24) and a_game().round_period == timedelta(hours=2)


def kept(version: int, player_id: str = "P1") -> KeptResults:
    return KeptResults(game_id="g1", player_id=player_id, version=version, at=NOW, subject=f"v{version}")


def test_the_latest_results_mail_of_each_player_is_kept_and_never_replaced_by_an_older(
    aws: Aws, store: Store
) -> None:
    created(store)
    assert store.latest_results("g1", "P1") is None
    assert store.keep_results(kept(3), b"mail 3")
    assert store.keep_results(kept(5), b"mail 5")
    assert not store.keep_results(kept(4), b"mail 4")
    assert store.keep_results(kept(1, "P2"), b"mail for P2")
    found = store.latest_results("g1", "P1")
    assert found is not None
    assert (found[0].version, found[0].subject, found[1]) == (5, "v5", b"mail 5")
    assert found[0].object_key == "results/g1/P1/00000005.eml"
    assert raw_item(aws, "GAME#g1", "RESULTS#P1")["kind"] == {"S": "results"}
    assert store.players("g1") == [a_player("P1"), a_player("P2")]  # the pointers are no players


# --- Issue 6: players updated, versions listed, reminders noted, schedules stored ---


def test_an_updated_player_is_found_by_its_new_address_only(store: Store) -> None:
    created(store)
    moved = a_player("P1").model_copy(update={"address": "new@example.org", "role": "standby"})
    store.update_player(moved)
    assert [p.player_id for p in store.players_by_address("new@example.org")] == ["P1"]
    assert store.players_by_address("p1@example.org") == []
    assert next(p for p in store.players("g1") if p.player_id == "P1").role == "standby"
    with pytest.raises(PlayerNotFoundError):
        store.update_player(a_player("P9"))
    assert [p.player_id for p in store.players("g1")] == ["P1", "P2"]


def test_a_wait_takes_a_ready_game_back_to_its_deadline(store: Store) -> None:
    awaiting = (awaited("turn:1", "P1"), awaited("turn:1", "P2"))
    created(store, a_game(awaiting=awaiting, deadline=NOW + HOUR))
    store.add_submission(a_submission("P1"))
    store.add_submission(a_submission("P2"))
    assert [g.game_id for g in store.due_games(NOW)] == ["g1"]
    waiting = a_player("P2").model_copy(update={"wait_scope": "turn:1"})
    store.update_player(waiting)
    assert store.due_games(NOW) == []
    assert [g.game_id for g in store.due_games(NOW + HOUR)] == ["g1"]


def test_versions_lists_every_game_record_oldest_first(store: Store) -> None:
    game = created(store)
    store.commit(game.model_copy(update={"turn": 1}), state_json(), expected_version=0)
    store.commit(game.model_copy(update={"turn": 2}), state_json(), expected_version=1)
    assert [(v.version, v.turn) for v in store.versions("g1")] == [(0, 0), (1, 1), (2, 2)]
    assert store.versions("nope") == []


def test_noting_reminders_moves_the_game_on_in_the_due_index_in_place(store: Store) -> None:
    # Given a game whose deadline is in two days, reminded 24 and 2 hours before
    deadline = NOW + timedelta(hours=48)
    game = created(store, a_game(awaiting=(awaited("turn:1", "P1"),), deadline=deadline, opened_at=NOW))
    assert [g.game_id for g in store.due_games(NOW + timedelta(hours=24))] == ["g1"]
    # When the first reminder is noted
    assert store.note_reminders(game, NOW + timedelta(hours=24))
    # Then the game is due at the next one, still at its version; a stale note writes nothing
    assert store.due_games(NOW + timedelta(hours=24)) == []
    assert [g.game_id for g in store.due_games(deadline - 2 * HOUR)] == ["g1"]
    stored = store.game("g1")
    assert stored is not None and stored.version == 0 and stored.reminded_at == NOW + timedelta(hours=24)
    assert not store.note_reminders(game.model_copy(update={"version": 5}), deadline)


def test_a_schedule_with_fractions_of_hours_is_stored_and_read_back(store: Store) -> None:
    plan = Schedule(min_hours=1.5, grace_hours=0.25, reminders=(36.5, 0.5), timezone="Asia/Kolkata")
    game = created(store, a_game(schedule=plan, setup=GameSetup(seed=3, seats=3)))
    stored = store.game("g1")
    assert stored is not None and stored.schedule == plan and stored.setup == game.setup
    assert store.versions("g1")[0].schedule == plan
