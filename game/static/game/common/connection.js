// A live connection to one table: reconnects with back-off, keeps the state version, resyncs on
// a gap. The page passes callbacks; nothing here knows about the board or the scoreboard.

/** The frames these modules read (game/live/page_protocol.py PAGE_PROTOCOL). */
const PAGE_PROTOCOL = 3;
/** How often an open connection asks the server whether it still hears it. */
const PING_MS = 15000;
/** A connection that hears nothing (not even the pong) this long after a ping is dead: a phone
 * whose Wi-Fi died keeps its socket "open" for minutes. It is dropped and opened again. A command
 * sent pings at once, so that its fate is known within this time. */
export const PONG_TIMEOUT_MS = 5000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;

/** The error code of a read (preview, entries, history, sync) the server refused past its read
 * budget: nothing was done, and the message says when to try again. It answers no command. */
export const BUSY_READING = "busy_reading";

/** How long a page waits before asking again for the snapshot a refused sync did not bring. */
const SYNC_RETRY_MS = 2000;

export class TableConnection {
  /**
   * @param {string} code table code
   * @param {object} handlers onSnapshot(msg), onHistory(msg), onUpdate(msg), onPresence(msg),
   *   onError(msg), onEntries(msg) and onPreview(msg) (the host's corrections), onRematch(msg),
   *   onStatus(status) with status "connecting" (first attempt), "open" (the server answered),
   *   "reconnecting" (dropped, silent, or retrying after a drop) or "gone" (no such table)
   */
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    this.version = null;
    this.everOpen = false;
    this.retryMs = FIRST_RETRY_MS;
    this.socket = null;
    this.pinger = null;
    /** The timer that drops a connection whose ping went unanswered (null: none pending). */
    this.deadline = null;
    /** Whether the current socket has heard from the server (only then is it "open"). */
    this.live = false;
    this.sequence = 0;
    /** Whether a sync is awaiting its snapshot (a refusal of it is then retried unseen). */
    this.syncing = false;
    this.connect();
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The protocol these modules speak (game/live/page_protocol.py): after an upgrade that
    // changed the frames, the server tells a page still running older modules to reload.
    return `${scheme}://${location.host}/ws/t/${this.code}?protocol=${PAGE_PROTOCOL}`;
  }

  connect() {
    this.status(this.everOpen ? "reconnecting" : "connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    this.live = false;
    socket.onopen = () => {
      this.pinger = setInterval(() => this.ping(), PING_MS);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.heard();
      if (!this.live) {
        // Open once the server speaks (its snapshot comes first): a handshake alone proves little.
        this.live = true;
        this.retryMs = FIRST_RETRY_MS;
        this.everOpen = true;
        this.status("open");
      }
      this.receive(JSON.parse(event.data));
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.dropped(event.code);
    };
  }

  /** The socket closed (or was given up as dead): try again after a back-off. */
  dropped(code) {
    clearInterval(this.pinger);
    this.heard();
    this.live = false;
    if (code === 4404) {
      this.status("gone");
      return;
    }
    this.status(this.everOpen ? "reconnecting" : "connecting");
    const wait = this.retryMs * (0.75 + Math.random() / 2);
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Ask the server for a pong; unless something arrives within PONG_TIMEOUT_MS, the connection
   * is dead. */
  ping() {
    if (!this.send({ type: "ping" }) || this.deadline !== null) return;
    const socket = this.socket;
    this.deadline = setTimeout(() => {
      this.deadline = null;
      if (this.socket !== socket) return;
      socket.onclose = null;
      socket.onmessage = null;
      socket.close();
      this.dropped(1006);
    }, PONG_TIMEOUT_MS);
  }

  /** Something came from the server: the connection lives. */
  heard() {
    clearTimeout(this.deadline);
    this.deadline = null;
  }

  /** Try again now (back online, page shown again, or the person asks), unless a connection
   * is open or opening. */
  reconnectNow() {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    clearTimeout(this.timer);
    this.retryMs = FIRST_RETRY_MS;
    this.connect();
  }

  receive(message) {
    const call = (name) => this.handlers[name]?.(message);
    switch (message.type) {
      case "snapshot":
        this.syncing = false;
        this.version = message.version;
        call("onSnapshot");
        break;
      case "update":
        // Already in the snapshot this connection holds (sent while it was being taken).
        if (this.version !== null && message.version <= this.version) return;
        if (this.version !== message.from_version) {
          this.resync();
          return;
        }
        this.version = message.version;
        call("onUpdate");
        break;
      case "history":
        call("onHistory");
        break;
      case "presence":
        call("onPresence");
        break;
      case "rematch":
        call("onRematch");
        break;
      case "reload":
        location.reload();
        break;
      case "entries":
        call("onEntries");
        break;
      case "preview":
        call("onPreview");
        break;
      case "pong":
        // An update this connection never received (its publication was lost): catch up.
        if (this.version !== null && message.version > this.version) this.resync();
        break;
      case "error":
        if (message.code === "stale") this.resync();
        if (message.code === BUSY_READING && message.id == null && this.syncing) {
          // The page's own catch-up, refused past the read budget: ask again shortly, unseen.
          setTimeout(() => this.resync(), SYNC_RETRY_MS);
          return;
        }
        call("onError");
        break;
    }
  }

  status(value) {
    if (this.handlers.onStatus) this.handlers.onStatus(value);
  }

  /** Ask for a fresh snapshot (and history): the page missed an update. */
  resync() {
    this.syncing = this.send({ type: "sync" });
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send an engine command made against the current version; returns its id (or null).
   * `seat`: the seat it is for, when a tabletop game's host enters it for another player;
   * `repeat`: the sender confirmed an entry refused `repeated` (another device's just now). */
  command(command, seat, repeat = false) {
    this.sequence += 1;
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${this.sequence}`;
    const message = { type: "command", version: this.version, id, command };
    if (seat != null) message.seat = seat;
    if (repeat) message.repeat = true;
    if (!this.send(message)) return null;
    this.ping();
    return id;
  }
}
