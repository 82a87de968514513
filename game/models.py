"""Tables, seats and the append-only log of applied commands.

A table's game state is not stored as such: its setup (fixed when the game starts) and its log
replay to it, exactly as a game record does. ``version`` is the number of log entries.
"""

from __future__ import annotations

from django.db import models


class Table(models.Model):
    """A game table, from its lobby to the end of the game."""

    class Status(models.TextChoices):
        LOBBY = "lobby"
        PLAYING = "playing"
        FINISHED = "finished"

    code = models.CharField(max_length=16, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    preset = models.CharField(max_length=16)
    overrides = models.JSONField(default=dict, blank=True)
    """House rules: single options that differ from the preset."""
    mode = models.CharField(max_length=16, default="board")
    max_seats = models.PositiveSmallIntegerField(default=4)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    setup = models.JSONField(null=True, blank=True)
    """The record's head once the game has started: players, resolved options, seed, orders."""
    version = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    """The finished table this one is the rematch of. One-to-one, so that a finished game has at
    most one rematch however many pages (on however many servers) ask for it at once."""
    host_token = models.CharField(max_length=64, blank=True, default="")
    """The token of the host, who manages the seats (and at a tabletop game enters for every
    seat). Usually a seat's token; at a tabletop game a host who keeps the score without playing
    holds a token of no seat. Empty for tables made before hosts could change: seat 0 hosts."""
    absent_after = models.PositiveIntegerField(default=60)
    """Seconds without a connection after which the seat to move counts as absent and the
    others are offered to let a computer play for it."""

    def __str__(self) -> str:
        return f"{self.code} ({self.preset}, {self.status})"


class Seat(models.Model):
    """A player's place at a table; ``token`` is the secret that lets a browser act for it."""

    class Preference(models.TextChoices):
        ASK = "ask"
        MEEPLE = "meeple"
        MESSENGER = "messenger"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=20)
    colour = models.CharField(max_length=16)
    token = models.CharField(max_length=64, unique=True)
    preference = models.CharField(max_length=16, choices=Preference.choices, default=Preference.ASK)
    joined = models.DateTimeField(auto_now_add=True)
    computer = models.CharField(max_length=16, blank=True, default="")
    """The level of the computer that plays this seat; empty while a person does."""
    stand_in = models.BooleanField(default=False)
    """The computer only stands in for the seat's person, who may take the seat back."""
    vacant = models.BooleanField(default=False)
    """Its person left (their link no longer works); the host may admit someone new."""
    away_since = models.DateTimeField(null=True, blank=True)
    """When the seat's last connection closed; empty while connected or never connected (then
    ``joined`` counts)."""

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "colour"], name="one_colour_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} seat {self.index}: {self.name}"


class LogEntry(models.Model):
    """One applied command: the record action, what it caused, and who sent it.

    Rows are only ever added. ``index`` is the table's version before the command.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="log")
    index = models.PositiveIntegerField()
    action = models.JSONField()
    """The record action, with its seat."""
    events = models.JSONField(default=list)
    command_id = models.CharField(max_length=64, blank=True, default="")
    """The client's id of the command; empty for choices the server made from a preference."""
    automatic = models.BooleanField(default=False)
    turn = models.PositiveIntegerField(null=True, blank=True)
    """The game's turn after this entry (0 while the game is ending), for the limit on entries
    per turn; empty for entries written before it was kept, which no limit counts."""
    device = models.CharField(max_length=16, blank=True, default="", db_default="")
    """The connection that sent it (a random key per websocket), so that an entry repeating
    another device's a moment later is asked about; empty when unknown. The database's own
    default serves the previous release, whose inserts name no device, during an upgrade."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_entry_per_version"),
        ]
        indexes = [
            models.Index(fields=["table", "command_id"], name="log_command_id"),
            models.Index(fields=["table", "turn"], name="log_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.index}: {self.action.get('type')}"


class Checkpoint(models.Model):
    """The engine state of a table after ``version`` log entries (game/store/checkpoints.py), so
    that loading a table or taking back an entry replays only the entries after the nearest one.

    Written only by the server, signed with the secret key; never sent anywhere.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="checkpoints")
    version = models.PositiveIntegerField()
    state = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="one_checkpoint_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} checkpoint at {self.version}"


class Connection(models.Model):
    """An open websocket, so that every process can tell which seats are connected.

    A process that dies leaves its rows behind; they stop counting once ``seen`` is older than
    the presence timeout, since live connections refresh it with their pings.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    channel = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField()


class HealthCheck(models.Model):
    """One row that ``/healthz`` updates and commits on every check (game/ops/health.py): a write
    that reaches the disk, so that a database that refuses writes fails the check."""

    checked = models.DateTimeField()

    def __str__(self) -> str:
        return f"health checked at {self.checked:%Y-%m-%d %H:%M:%S}"


class AddressCount(models.Model):
    """How many times one client address did one limited thing (create a table, take a seat) in
    one clock hour (game/ops/address_limits.py).

    Kept in the database, not in Redis or a process's memory, so that a count survives a
    restart of either and every server process shares it. The address is stored only as a keyed
    hash: the rows say how busy an address was, never which address it was.
    """

    action = models.CharField(max_length=16)
    address = models.CharField(max_length=64)
    """HMAC-SHA256 of the client address under the secret key, in hex."""
    window = models.PositiveIntegerField()
    """The clock hour: whole hours since 1970-01-01 UTC."""
    count = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["action", "address", "window"], name="one_count_per_address_and_hour"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action} x{self.count} in hour {self.window}"
