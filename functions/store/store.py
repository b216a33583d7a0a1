"""The store: games, players, submissions, states, mail log, claims and mail identities in one DynamoDB table,
with states too big for an item in the state bucket.

Every write that changes a game is a new version, conditional on the version it was computed from
(:meth:`Store.commit`): of two workflow runs for the same game, exactly one commits.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from botocore.exceptions import ClientError

# The module, not its names: functions/schedule.py reads records from this package, which
# may be what is importing this module.
from functions import clients, schedule
from functions.resources import GSI1, GSI1PK, GSI1SK, GSI2, GSI2PK, GSI2SK, PK, SK, TTL_ATTRIBUTE, Settings
from functions.store import keys
from functions.store.attributes import Item, from_item, to_item
from functions.store.records import (
    Claim,
    GameRecord,
    KeptResults,
    MailIdentity,
    MailLogEntry,
    NewSubmission,
    PendingJoin,
    PlayerRecord,
    Submission,
)

# A state larger than this (UTF-8 bytes) goes to the state bucket; an item may hold 400 KB in all.
INLINE_LIMIT = 300_000
SUBMISSION_ATTEMPTS = 5
DUE_PAGE = 1000
"""Due-index items read per query page by the turn workflow's ``due_game_ids``."""
CLAIM_ATTEMPTS = 3


class GameExistsError(Exception):
    """create_game for a game id that is taken."""


class GameNotFoundError(LookupError):
    """No such game, or no such version of it."""


class PlayerNotFoundError(LookupError):
    """update_player for a player the game does not have."""


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _scope_matches(scope: str, prefix: str) -> bool:
    """A prefix selects a whole scope and the scopes under it: "combat:5/P1:2223" selects
    "combat:5/P1:2223" and "combat:5/P1:2223:2" but not "combat:5/P1:22230:1"; a prefix ending in
    ":" selects every scope it starts."""
    if not prefix or prefix.endswith(":"):
        return scope.startswith(prefix)
    return scope == prefix or scope.startswith(prefix + ":")


class Store:
    """The one way the host reads and writes persistent game data.

    ``dynamodb`` and ``s3`` are botocore clients (made from the environment when not given; the S3
    client on first use, as park_failed never needs it: ~90 ms of its cold start).
    """

    def __init__(self, settings: Settings, dynamodb: Any = None, s3: Any = None) -> None:
        self.settings = settings
        self.table = settings.table
        self.dynamodb = dynamodb if dynamodb is not None else clients.client("dynamodb")
        self._s3 = s3

    @property
    def s3(self) -> Any:
        if self._s3 is None:
            self._s3 = clients.client("s3")
        return self._s3

    # --- games -------------------------------------------------------------------------------------

    def create_game(self, game: GameRecord, players: Sequence[PlayerRecord], state_json: str) -> None:
        """A new game with its players and its first state (version ``game.version``, usually 0).
        Raises GameExistsError if the id is taken."""
        strangers = [p.player_id for p in players if p.game_id != game.game_id]
        if strangers:
            raise ValueError(f"players {strangers} are not in game {game.game_id}")
        state = self._state_attributes(game.game_id, game.version, state_json)
        writes = [self._put(self._game_item(game), new=True)]
        writes += [self._put(self._player_item(p), new=True) for p in players]
        writes.append(self._put(self._state_item(game, state), new=True))
        try:
            self.dynamodb.transact_write_items(TransactItems=writes)
        except ClientError as error:
            if _error_code(error) == "TransactionCanceledException":
                raise GameExistsError(f"game {game.game_id} exists already") from error
            raise

    def game(self, game_id: str) -> GameRecord | None:
        item = self._get(keys.game_pk(game_id), keys.META)
        return None if item is None else GameRecord.model_validate(item)

    def games(self) -> list[GameRecord]:
        """Every game, by id."""
        items = self._query(IndexName=GSI1, **self._key_is(GSI1PK, keys.GAMES))
        return [GameRecord.model_validate(item) for item in items]

    def open_games(self) -> list[GameRecord]:
        """The games open for sign-up, by id: the games index, filtered on the server so that
        only those come back (LIST by mail)."""
        query = self._key_is(GSI1PK, keys.GAMES)
        query["FilterExpression"] = "#status = :open"
        query["ExpressionAttributeNames"] |= {"#status": "status"}
        query["ExpressionAttributeValues"] |= to_item({":open": "open"})
        items = self._query(IndexName=GSI1, **query)
        return [GameRecord.model_validate(item) for item in items]

    def due_games(self, now: datetime) -> list[GameRecord]:
        """The running, unparked games with a deadline passed at ``now`` or, where processing may be
        early, every awaited order of a scope in. One query of the due index, never a scan."""
        games = [GameRecord.model_validate(item) for item in self._query(**self._due(now))]
        return sorted((g for g in games if g.schedulable()), key=lambda g: g.game_id)

    def due_game_ids(self, now: datetime, page_size: int = DUE_PAGE) -> Iterator[str]:
        """The ids of the games :meth:`due_games` gives, earliest due first (the ready ones, then
        by deadline), read ``page_size`` index items a page with only the attributes the check
        needs: the turn workflow's list of 10,000 games, without 10,000 records in memory."""
        query = self._due(now)
        query["ProjectionExpression"] = "#id, #status, #parked"
        query["ExpressionAttributeNames"] |= {"#id": "game_id", "#status": "status", "#parked": "parked"}
        for item in self._query(**query, PaginationConfig={"PageSize": page_size}):
            if item.get("status") == "running" and item.get("parked") is None:
                yield str(item["game_id"])

    @staticmethod
    def _due(now: datetime) -> Item:
        return {
            "IndexName": GSI2,
            "KeyConditionExpression": "#pk = :pk AND #sk <= :now",
            "ExpressionAttributeNames": {"#pk": GSI2PK, "#sk": GSI2SK},
            "ExpressionAttributeValues": to_item({":pk": keys.DUE, ":now": keys.iso(now)}),
        }

    # --- players -----------------------------------------------------------------------------------

    def players(self, game_id: str) -> list[PlayerRecord]:
        items = self._query(**self._in_partition(keys.game_pk(game_id), keys.player_sk("")))
        return [PlayerRecord.model_validate(item) for item in items]

    def players_by_address(self, address: str) -> list[PlayerRecord]:
        """Every player, in every game, registered with ``address`` (any case)."""
        items = self._query(IndexName=GSI1, **self._key_is(GSI1PK, keys.address_pk(address.strip().lower())))
        return [PlayerRecord.model_validate(item) for item in items]

    def add_player(self, player: PlayerRecord) -> bool:
        """A player joining a game; False if the player id is taken in that game."""
        return self._put_new(self._player_item(player))

    def update_player(self, player: PlayerRecord) -> None:
        """Overwrite an existing player (address, code hash, role, WAIT, absences, time zone,
        robot); the address index follows. Raises PlayerNotFoundError if there is no such player.
        A player's WAIT changes when their game runs: its place in the due index is recomputed."""
        try:
            self.dynamodb.put_item(
                TableName=self.table,
                Item=to_item(self._player_item(player)),
                ConditionExpression="attribute_exists(#pk)",
                ExpressionAttributeNames={"#pk": PK},
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                raise PlayerNotFoundError(
                    f"game {player.game_id} has no player {player.player_id}"
                ) from error
            raise
        game = self.game(player.game_id)
        if game is not None and self._set_due(game, schedule.due_at(game)):
            self._mark_due(game)

    # --- submissions -------------------------------------------------------------------------------

    def add_submission(self, new: NewSubmission) -> Submission:
        """Store ``new`` as the player's next version for its scope; every version is kept. A
        mail's orders are stored once: ``new.message_id`` already stored for the scope and player
        gives that version back. (A ``Submission`` may be passed: its version is ignored.)"""
        fields = new.model_dump(exclude={"version"})
        for _ in range(SUBMISSION_ATTEMPTS):
            versions = self._submission_versions(new.game_id, new.scope, new.player_id)
            if new.message_id in versions:
                # The same mail's orders stored before (its handling retried after a kill): kept
                # as they were, never a second version (which would also undo a later mail's).
                return Submission(**fields, version=versions[new.message_id])
            version = max(versions.values(), default=0) + 1
            submission = Submission(**fields, version=version)
            if self._put_new(self._submission_item(submission)):
                self._mark_due(self.game(new.game_id))
                return submission
        raise RuntimeError(f"could not number a submission for {new.game_id}/{new.scope}/{new.player_id}")

    def latest_submissions(self, game_id: str, scope_prefix: str = "") -> dict[tuple[str, str], Submission]:
        """(player, scope) -> the latest submission, for the scopes ``scope_prefix`` selects ("turn:5"
        that scope, "combat:5/P1:2223" the rounds of that combat, "combat:" every combat, ""
        everything). A (player, scope) whose latest version is a ``discarded`` marker has none."""
        latest: dict[tuple[str, str], Submission] = {}
        for item in self._query(
            **self._in_partition(keys.game_pk(game_id), keys.submission_prefix(scope_prefix))
        ):
            submission = Submission.model_validate(item)
            if _scope_matches(submission.scope, scope_prefix):
                latest[(submission.player_id, submission.scope)] = submission
        return {key: submission for key, submission in latest.items() if not submission.discarded}

    def submissions(self, game_id: str, scope: str, player_id: str) -> list[Submission]:
        """Every version of a player's orders for a scope, oldest first."""
        prefix = keys.submission_prefix(scope, player_id)
        return [
            Submission.model_validate(i)
            for i in self._query(**self._in_partition(keys.game_pk(game_id), prefix))
        ]

    # --- states and versions -----------------------------------------------------------------------

    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]:
        """The game as it was at ``version`` (the latest when None) and its state JSON."""
        pk = keys.game_pk(game_id)
        if version is None:
            found = self._query_page(
                **self._in_partition(pk, keys.STATE_SK_PREFIX), ScanIndexForward=False, Limit=1
            )
            item = found[0] if found else None
        else:
            item = self._get(pk, keys.state_sk(version))
        if item is None:
            raise GameNotFoundError(
                f"no game {game_id}" + ("" if version is None else f" at version {version}")
            )
        return GameRecord.model_validate_json(item["game"]), self._load_state(item)

    def versions(self, game_id: str) -> list[GameRecord]:
        """The game record of every stored version, oldest first (their states are not read)."""
        items = self._query(**self._in_partition(keys.game_pk(game_id), keys.STATE_SK_PREFIX, "game"))
        return [GameRecord.model_validate_json(item["game"]) for item in items]

    def commit(self, game: GameRecord, state_json: str, expected_version: int) -> bool:
        """Save ``game`` and its new state as version ``expected_version + 1`` if the stored game is
        still at ``expected_version``; False (nothing written) if someone else committed first."""
        record = game.model_copy(update={"version": expected_version + 1})
        state = self._state_attributes(game.game_id, record.version, state_json)
        return self._write_version(record, state, expected_version)

    def update_game(self, game: GameRecord, expected_version: int) -> bool:
        """Change the game's metadata only (pause, park, count a failure): a new version with the
        state of ``expected_version``, conditional as :meth:`commit` is."""
        item = self._get(keys.game_pk(game.game_id), keys.state_sk(expected_version))
        if item is None:
            return False
        record = game.model_copy(update={"version": expected_version + 1})
        return self._write_version(record, self._stored_state(item), expected_version)

    def rollback(self, game_id: str, to_version: int, expected_version: int) -> bool:
        """Make the game and state of ``to_version`` current again, as a new version (history is kept)."""
        item = self._get(keys.game_pk(game_id), keys.state_sk(to_version))
        if item is None:
            raise GameNotFoundError(f"no game {game_id} at version {to_version}")
        old = GameRecord.model_validate_json(item["game"])
        record = old.model_copy(update={"version": expected_version + 1})
        return self._write_version(record, self._stored_state(item), expected_version)

    # --- results mail kept for REPORT --------------------------------------------------------------

    def keep_results(self, kept: KeptResults, raw: bytes) -> bool:
        """Keep ``raw``, the MIME of the results mail of ``kept.version`` sent to a player, as their
        latest: the mail in the state bucket, a small ``RESULTS#<player>`` item pointing at it. A
        mail of an older version never replaces a newer one's (False then)."""
        key = keys.results_object_key(kept.game_id, kept.player_id, kept.version)
        self.s3.put_object(Bucket=self.settings.state_bucket, Key=key, Body=raw, ContentType="message/rfc822")
        item = {
            PK: keys.game_pk(kept.game_id),
            SK: keys.results_sk(kept.player_id),
            "kind": "results",
            **kept.model_copy(update={"object_key": key}).model_dump(mode="json"),
        }
        try:
            self.dynamodb.put_item(
                TableName=self.table,
                Item=to_item(item),
                ConditionExpression="attribute_not_exists(#pk) OR #version <= :version",
                ExpressionAttributeNames={"#pk": PK, "#version": "version"},
                ExpressionAttributeValues=to_item({":version": kept.version}),
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def latest_results(self, game_id: str, player_id: str) -> tuple[KeptResults, bytes] | None:
        """The latest results mail kept for a player (see ``keep_results``), or None."""
        item = self._get(keys.game_pk(game_id), keys.results_sk(player_id))
        if item is None:
            return None
        kept = KeptResults.model_validate(item)
        body = self.s3.get_object(Bucket=self.settings.state_bucket, Key=kept.object_key)["Body"]
        return kept, bytes(body.read())

    # --- mail log and seen messages ----------------------------------------------------------------

    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None:
        """Record a mail; logging the same entry twice (a retried handler) keeps one."""
        digest = hashlib.sha256(entry.model_dump_json().encode()).hexdigest()
        item = {
            PK: keys.log_pk(entry.game_id),
            SK: keys.log_sk(entry.at, digest),
            "kind": "mail",
            TTL_ATTRIBUTE: keys.epoch_seconds(entry.at + timedelta(days=ttl_days)),
            **entry.model_dump(mode="json"),
        }
        self.dynamodb.put_item(TableName=self.table, Item=to_item(item))

    def mail_log(self, game_id: str | None) -> list[MailLogEntry]:
        """The mail of a game (None: mail that named no game), oldest first."""
        items = self._query(**self._in_partition(keys.log_pk(game_id), keys.LOG_SK_PREFIX))
        return [MailLogEntry.model_validate(item) for item in items]

    # --- claims: work done once, taken over when its claimer died ------------------------------

    def claim(
        self, key: str, now: datetime, lease: timedelta, data: dict[str, str] | None = None
    ) -> Claim | None:
        """Claim the work ``key`` until ``now + lease``: the claim when it was free, or in
        progress with its lease run out (its claimer was killed: it is taken over, keeping its
        first ``at`` and ``data``, on the condition that the lease is still the one read, so of
        two takers one wins); None when it is done or held. ``data`` goes with a new claim."""
        fresh = Claim(key=key, state="in_progress", at=now, lease_until=now + lease, data=data or {})
        for _ in range(CLAIM_ATTEMPTS):
            if self._put_new(self._claim_item(fresh)):
                return fresh
            held = self.claimed(key)
            if held is None:
                continue  # released between the write and the read: claim it again
            if held.state == "done" or held.lease_until is None or held.lease_until > now:
                return None
            taken = held.model_copy(update={"lease_until": now + lease, "attempt": held.attempt + 1})
            try:
                self.dynamodb.update_item(
                    TableName=self.table,
                    Key=to_item({PK: keys.claim_pk(key), SK: keys.CLAIM}),
                    UpdateExpression="SET #lease = :new, #attempt = :attempt",
                    ConditionExpression="#state = :progress AND #lease = :old",
                    ExpressionAttributeNames={
                        "#lease": "lease_until",
                        "#attempt": "attempt",
                        "#state": "state",
                    },
                    ExpressionAttributeValues=to_item(
                        {
                            ":new": keys.iso(now + lease),
                            ":old": keys.iso(held.lease_until),
                            ":attempt": taken.attempt,
                            ":progress": "in_progress",
                        }
                    ),
                )
            except ClientError as error:
                if _error_code(error) == "ConditionalCheckFailedException":
                    return None
                raise
            return taken
        return None

    def claimed(self, key: str) -> Claim | None:
        """The claim on ``key`` as stored, or None."""
        item = self._get(keys.claim_pk(key), keys.CLAIM)
        return None if item is None else Claim.model_validate(item)

    def complete(self, key: str) -> None:
        """The work ``key`` is done: never claimed again (its ``data`` is dropped)."""
        self.dynamodb.update_item(
            TableName=self.table,
            Key=to_item({PK: keys.claim_pk(key), SK: keys.CLAIM}),
            UpdateExpression="SET #state = :done REMOVE #lease, #data",
            ExpressionAttributeNames={"#state": "state", "#lease": "lease_until", "#data": "data"},
            ExpressionAttributeValues=to_item({":done": "done"}),
        )

    def release(self, key: str) -> None:
        """Give up the claim on ``key`` after a clean failure, so that the next attempt claims it at
        once (a done claim is never released)."""
        try:
            self.dynamodb.delete_item(
                TableName=self.table,
                Key=to_item({PK: keys.claim_pk(key), SK: keys.CLAIM}),
                ConditionExpression="#state = :progress",
                ExpressionAttributeNames={"#state": "state"},
                ExpressionAttributeValues=to_item({":progress": "in_progress"}),
            )
        except ClientError as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise

    def done(self, claim_keys: Sequence[str]) -> set[str]:
        """Which of ``claim_keys`` are done (BatchGetItem, strongly consistent)."""
        found: set[str] = set()
        wanted = list(dict.fromkeys(claim_keys))
        for start in range(0, len(wanted), 100):
            request = {
                self.table: {
                    "Keys": [
                        to_item({PK: keys.claim_pk(k), SK: keys.CLAIM}) for k in wanted[start : start + 100]
                    ],
                    "ConsistentRead": True,
                }
            }
            while request:
                answer = self.dynamodb.batch_get_item(RequestItems=request)
                for item in answer["Responses"].get(self.table, []):
                    claim = Claim.model_validate(from_item(item))
                    if claim.state == "done":
                        found.add(claim.key)
                request = answer.get("UnprocessedKeys") or {}
        return found

    def identify(self, identities: Sequence[str], owner: str, digest: str) -> MailIdentity | None:
        """Register the identities of the raw mail at ``owner`` (its S3 key; ``digest``: its
        content's); the first one an earlier, other raw mail registered, or None. Registering
        again for the same owner (a retried handling) finds nothing."""
        earlier: MailIdentity | None = None
        for identity in dict.fromkeys(identities):
            mine = MailIdentity(identity=identity, owner=owner, digest=digest)
            item = {PK: keys.seen_pk(identity), SK: keys.SEEN, "kind": "seen", **mine.model_dump(mode="json")}
            if self._put_new(item):
                continue
            stored = self._get(keys.seen_pk(identity), keys.SEEN) or {}
            # Records from before identities had owners name none: an earlier mail's.
            found = MailIdentity(
                identity=identity, owner=str(stored.get("owner", "")), digest=str(stored.get("digest", ""))
            )
            if found.owner != owner and earlier is None:
                earlier = found
        return earlier

    # --- rate limits and pending joins -------------------------------------------------------------

    def allow(self, kind: str, subject: str, window: timedelta, limit: int, now: datetime) -> bool:
        """Count one more ``kind`` for ``subject`` in the fixed window of length ``window`` that
        ``now`` is in; False, and nothing counted, when ``limit`` were counted in it already.
        One conditional ``UpdateItem ADD``, so concurrent handlers never count past the limit;
        the counter expires (TTL) at the end of its window."""
        start = keys.window_start(now, window)
        try:
            self.dynamodb.update_item(
                TableName=self.table,
                Key=to_item({PK: keys.limit_pk(kind, subject), SK: keys.limit_sk(start)}),
                UpdateExpression="ADD #count :one SET #kind = :kind, #expires = :expires",
                ConditionExpression="attribute_not_exists(#count) OR #count < :limit",
                ExpressionAttributeNames={"#count": "count", "#kind": "kind", "#expires": TTL_ATTRIBUTE},
                ExpressionAttributeValues=to_item(
                    {
                        ":one": 1,
                        ":kind": "limit",
                        ":limit": limit,
                        ":expires": keys.epoch_seconds(start + window),
                    }
                ),
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def add_pending_join(self, token: str, pending: PendingJoin) -> None:
        """A JOIN waiting for ``CONFIRM <token>``, kept (by the token's hash) until it expires."""
        item = {
            PK: keys.pending_join_pk(token),
            SK: keys.PENDING,
            "kind": "join",
            TTL_ATTRIBUTE: keys.epoch_seconds(pending.expires_at),
            **pending.model_dump(mode="json"),
        }
        self.dynamodb.put_item(TableName=self.table, Item=to_item(item))

    def take_pending_join(self, token: str, address: str, now: datetime, by: str) -> PendingJoin | None:
        """The JOIN ``token`` confirms, if ``address`` asked for it, it has not expired, and no
        mail but ``by`` (the confirming raw mail's key) took it before: marked taken by ``by``,
        so that it is confirmed once only, yet found again by a retry of the same mail; else
        None, nothing changed. The item expires with its TTL."""
        try:
            found = self.dynamodb.update_item(
                TableName=self.table,
                Key=to_item({PK: keys.pending_join_pk(token), SK: keys.PENDING}),
                UpdateExpression="SET #by = :by",
                ConditionExpression=(
                    "#address = :address AND #expires > :now"
                    " AND (attribute_not_exists(#by) OR #by IN (:nobody, :by))"
                ),
                ExpressionAttributeNames={
                    "#address": "address",
                    "#expires": TTL_ATTRIBUTE,
                    "#by": "confirmed_by",
                },
                ExpressionAttributeValues=to_item(
                    {
                        ":address": address.strip().lower(),
                        ":now": keys.epoch_seconds(now),
                        ":by": by,
                        ":nobody": "",
                    }
                ),
                ReturnValues="ALL_NEW",
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return None
            raise
        return PendingJoin.model_validate(from_item(found["Attributes"]))

    # --- turn workflow runs: work lists, the run lease, game leases --------------------------------

    def put_work_list(self, run: str, game_ids: Sequence[str]) -> str:
        """Write the run's work list (a JSON array of game ids, which the workflow's Distributed
        Map reads with its ItemReader) to the state bucket; its key."""
        key = keys.work_list_key(run)
        body = json.dumps(list(game_ids), separators=(",", ":")).encode()
        self.s3.put_object(
            Bucket=self.settings.state_bucket, Key=key, Body=body, ContentType="application/json"
        )
        return key

    def lease_run(self, run: str, now: datetime, until: datetime, alive: Callable[[str], bool]) -> str:
        """Take the run lease for ``run`` until ``until``; the run that holds it afterwards (``run``
        when taken). Nobody releases it: it is free once it expires (at ``now``) or once its holder
        is no longer running (``alive``, asked only then), and a retried run takes its own again.
        Of two runs taking it at once, the conditional write lets one."""
        held = self._get(keys.WORKFLOW, keys.RUN_LEASE)
        if held is not None and held["run"] != run and held["until"] > keys.iso(now) and alive(held["run"]):
            return str(held["run"])
        item = {PK: keys.WORKFLOW, SK: keys.RUN_LEASE, "kind": "lease", "run": run, "until": keys.iso(until)}
        try:
            if held is None:
                self.dynamodb.put_item(**self._put(item, new=True)["Put"])
            else:
                self.dynamodb.put_item(
                    TableName=self.table,
                    Item=to_item(item),
                    ConditionExpression="#run = :seen",
                    ExpressionAttributeNames={"#run": "run"},
                    ExpressionAttributeValues=to_item({":seen": held["run"]}),
                )
        except ClientError as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise
            taken = self._get(keys.WORKFLOW, keys.RUN_LEASE)
            return run if taken is None else str(taken["run"])
        return run

    def lease_game(self, game_id: str, run: str, now: datetime, until: datetime) -> bool:
        """Lease the game to ``run`` until ``until`` (before processing it); False when another
        run holds an unexpired lease on it. The same run may lease it again (a retry)."""
        item = {
            PK: keys.game_pk(game_id),
            SK: keys.GAME_LEASE,
            "kind": "lease",
            "run": run,
            "until": keys.iso(until),
            # A lease whose run crashed before releasing it goes away on its own.
            TTL_ATTRIBUTE: keys.epoch_seconds(until),
        }
        try:
            self.dynamodb.put_item(
                TableName=self.table,
                Item=to_item(item),
                ConditionExpression="attribute_not_exists(#pk) OR #until <= :now OR #run = :run",
                ExpressionAttributeNames={"#pk": PK, "#until": "until", "#run": "run"},
                ExpressionAttributeValues=to_item({":now": keys.iso(now), ":run": run}),
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def release_game(self, game_id: str, run: str) -> None:
        """End ``run``'s lease on the game (nothing if another run holds it now)."""
        try:
            self.dynamodb.delete_item(
                TableName=self.table,
                Key=to_item({PK: keys.game_pk(game_id), SK: keys.GAME_LEASE}),
                ConditionExpression="#run = :run",
                ExpressionAttributeNames={"#run": "run"},
                ExpressionAttributeValues=to_item({":run": run}),
            )
        except ClientError as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise

    # --- items -------------------------------------------------------------------------------------

    def _claim_item(self, claim: Claim) -> Item:
        # No TTL: a done claim must outlive any game (a results mail or an inbound mail handled
        # again years later would be sent or read twice); an item is ~200 bytes.
        return {
            PK: keys.claim_pk(claim.key),
            SK: keys.CLAIM,
            "kind": "claim",
            **claim.model_dump(mode="json"),
        }

    def _game_item(self, game: GameRecord) -> Item:
        item: Item = {
            PK: keys.game_pk(game.game_id),
            SK: keys.META,
            "kind": "game",
            GSI1PK: keys.GAMES,
            GSI1SK: keys.game_pk(game.game_id),
            **game.model_dump(mode="json"),
        }
        due = schedule.due_at(game)
        if due is not None:
            item |= {GSI2PK: keys.DUE, GSI2SK: keys.iso(due)}
        return item

    def _player_item(self, player: PlayerRecord) -> Item:
        return {
            PK: keys.game_pk(player.game_id),
            SK: keys.player_sk(player.player_id),
            "kind": "player",
            GSI1PK: keys.address_pk(player.address),
            GSI1SK: keys.player_ref(player.game_id, player.player_id),
            **player.model_dump(mode="json"),
        }

    def _submission_item(self, submission: Submission) -> Item:
        return {
            PK: keys.game_pk(submission.game_id),
            SK: keys.submission_sk(submission.scope, submission.player_id, submission.version),
            "kind": "submission",
            **submission.model_dump(mode="json"),
        }

    def _state_item(self, game: GameRecord, state: Item) -> Item:
        return {
            PK: keys.game_pk(game.game_id),
            SK: keys.state_sk(game.version),
            "kind": "state",
            "version": game.version,
            "game": game.model_dump_json(),
            **state,
        }

    def _state_attributes(self, game_id: str, version: int, state_json: str) -> Item:
        """The state inline, or offloaded to the state bucket with a pointer when too big."""
        encoded = state_json.encode()
        if len(encoded) <= INLINE_LIMIT:
            return {"state": state_json}
        key = keys.state_object_key(game_id, version, encoded)
        self.s3.put_object(
            Bucket=self.settings.state_bucket, Key=key, Body=encoded, ContentType="application/json"
        )
        return {"state_key": key}

    @staticmethod
    def _stored_state(item: Item) -> Item:
        return {name: item[name] for name in ("state", "state_key") if name in item}

    def _load_state(self, item: Item) -> str:
        if "state" in item:
            return str(item["state"])
        body = self.s3.get_object(Bucket=self.settings.state_bucket, Key=item["state_key"])["Body"]
        return bytes(body.read()).decode()

    # --- versions and readiness --------------------------------------------------------------------

    def _write_version(self, record: GameRecord, state: Item, expected_version: int) -> bool:
        meta = self._put(self._game_item(record))
        meta["Put"] |= {
            "ConditionExpression": "#version = :expected",
            "ExpressionAttributeNames": {"#version": "version"},
            "ExpressionAttributeValues": to_item({":expected": expected_version}),
        }
        writes = [meta, self._put(self._state_item(record, state), new=True)]
        try:
            self.dynamodb.transact_write_items(TransactItems=writes)
        except ClientError as error:
            if _error_code(error) == "TransactionCanceledException":
                return False
            raise
        self._mark_due(record)
        return True

    def note_reminders(self, game: GameRecord, reminded_at: datetime) -> bool:
        """The reminders of ``game``'s deadline up to ``reminded_at`` are sent: the META item
        records it in place (no new version), and its place in the due index moves on to what
        comes next. False (nothing written) when the game is no longer at ``game.version``."""
        record = game.model_copy(update={"reminded_at": reminded_at})
        key = schedule.due_at(record)
        values: Item = {":at": keys.iso(reminded_at)}
        if key is None:
            update = "SET #at = :at REMOVE #pk, #sk"
        else:
            update = "SET #at = :at, #pk = :due, #sk = :key"
            values |= {":due": keys.DUE, ":key": keys.iso(key)}
        if not self._update_meta(game, update, values, {"#at": "reminded_at"}):
            return False
        self._mark_due(record)
        return True

    def _mark_due(self, game: GameRecord | None) -> None:
        """Move the game earlier in the due index for the orders that are in: first of all
        (``READY``) when every awaited order of a scope is in and ready (``Submission.ready``) and
        the scope runs early, at the deadline, without grace, when a player-turn's are in (ready
        or not) but must wait for it. The mark is an index entry, not a version: the next commit
        recomputes it. It only ever moves the game earlier, so that of a submission and a commit
        racing, each writing first and reading the other after, at least one marks what both
        wrote."""
        if game is None or not game.schedulable():
            return
        players = self.players(game.game_id)
        complete, ready = [], []
        for scope, awaited in game.awaited_scopes().items():
            orders_in = self._orders_in(game.game_id, scope)
            if awaited <= orders_in.keys():
                complete.append(scope)
                if all(orders_in[player] for player in awaited):
                    ready.append(scope)
        if any(schedule.runs_early(game, scope, players) for scope in ready):
            self._set_due(game, keys.READY, only_earlier=True)
        elif complete and not game.on_round_clock:
            self._set_due(game, schedule.due_at(game, orders_in=True), only_earlier=True)

    def _set_due(self, game: GameRecord, due: datetime | str | None, only_earlier: bool = False) -> bool:
        """Put the game in the due index at ``due`` (a time, or ``READY``), if it is still at
        ``game.version`` (and, ``only_earlier``, if that is earlier than where it is)."""
        if due is None:
            return False
        key = due if isinstance(due, str) else keys.iso(due)
        earlier = " AND (attribute_not_exists(#sk) OR #sk > :key)" if only_earlier else ""
        values = {":due": keys.DUE, ":key": key}
        return self._update_meta(game, "SET #pk = :due, #sk = :key", values, {}, earlier)

    def _update_meta(
        self, game: GameRecord, update: str, values: Item, names: dict[str, str], condition: str = ""
    ) -> bool:
        """Update the game's META item in place (``#pk``, ``#sk``: its due-index keys) if it is
        still at ``game.version`` and ``condition`` holds; False (nothing written) if not."""
        try:
            self.dynamodb.update_item(
                TableName=self.table,
                Key=to_item({PK: keys.game_pk(game.game_id), SK: keys.META}),
                UpdateExpression=update,
                ConditionExpression="#version = :version" + condition,
                ExpressionAttributeNames={"#pk": GSI2PK, "#sk": GSI2SK, "#version": "version", **names},
                ExpressionAttributeValues=to_item({":version": game.version, **values}),
            )
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def _orders_in(self, game_id: str, scope: str) -> dict[str, bool]:
        """Player -> whether their latest orders for ``scope`` are ready (``Submission.ready``; a
        record without the flag is). A player whose latest version is a rollback's marker
        (``discarded``) has none. Versions come oldest first, so the last one read stands."""
        items = self._query(
            **self._in_partition(
                keys.game_pk(game_id), keys.submission_prefix(scope + "#"), "player_id", "ready", "discarded"
            )
        )
        latest = {str(item["player_id"]): item for item in items}
        return {
            player: bool(item.get("ready", True))
            for player, item in latest.items()
            if not item.get("discarded")
        }

    def _submission_versions(self, game_id: str, scope: str, player_id: str) -> dict[str, int]:
        """Message id -> version of a player's submissions for a scope (a handful)."""
        prefix = keys.submission_prefix(scope, player_id)
        query = self._in_partition(keys.game_pk(game_id), prefix, "version", "message_id")
        return {str(item["message_id"]): int(item["version"]) for item in self._query(**query)}

    # --- DynamoDB ----------------------------------------------------------------------------------

    def _put(self, item: Item, new: bool = False) -> Item:
        put: Item = {"TableName": self.table, "Item": to_item(item)}
        if new:
            put["ConditionExpression"] = "attribute_not_exists(#pk)"
            put["ExpressionAttributeNames"] = {"#pk": PK}
        return {"Put": put}

    def _put_new(self, item: Item) -> bool:
        try:
            self.dynamodb.put_item(**self._put(item, new=True)["Put"])
        except ClientError as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def _get(self, pk: str, sk: str) -> Item | None:
        found = self.dynamodb.get_item(
            TableName=self.table, Key=to_item({PK: pk, SK: sk}), ConsistentRead=True
        )
        return from_item(found["Item"]) if "Item" in found else None

    @staticmethod
    def _key_is(attribute: str, value: str) -> Item:
        return {
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {"#pk": attribute},
            "ExpressionAttributeValues": to_item({":pk": value}),
        }

    @staticmethod
    def _in_partition(pk: str, sk_prefix: str, *only: str) -> Item:
        """A strongly consistent query of the items of partition ``pk`` whose sort key starts with
        ``sk_prefix`` (all their attributes, or ``only`` those)."""
        query: Item = {
            "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
            "ExpressionAttributeNames": {"#pk": PK, "#sk": SK},
            "ExpressionAttributeValues": to_item({":pk": pk, ":prefix": sk_prefix}),
            "ConsistentRead": True,
        }
        if only:
            names = {f"#only{index}": name for index, name in enumerate(only)}
            query["ProjectionExpression"] = ", ".join(names)
            query["ExpressionAttributeNames"] |= names
        return query

    def _query(self, **kwargs: Any) -> Iterator[Item]:
        paginator = self.dynamodb.get_paginator("query")
        for page in paginator.paginate(TableName=self.table, **kwargs):
            for item in page["Items"]:
                yield from_item(item)

    def _query_page(self, **kwargs: Any) -> list[Item]:
        return [from_item(item) for item in self.dynamodb.query(TableName=self.table, **kwargs)["Items"]]
