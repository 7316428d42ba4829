"""Talk at the table: room chat and 心战 quick phrases, moderation (mute, report), WeChat content
security for every free text, and "your turn" subscribe messages. See docs/chat.md.

Layers as in the room service: `service` and `notices` decide, `ports` says what they need from
storage (adapters in `chalicelib.store.chat` and `chalicelib.store.memory_chat`), `build` wires
them from the platform's `Services`. No game is named here (the default phrases in `phrases` are
keyed by contract family until the games declare their own)."""
