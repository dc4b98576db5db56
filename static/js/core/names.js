// What the pages and the worker keep on the phone and tell each other (README.md).

export const DATABASE = "scorekeeper";
export const ROUNDS = "rounds";
export const WAITING = "scorekeeper-waiting";
export const SENT = "scorekeeper-sent";
export const REFUSED = "scorekeeper-refused";
export const KEEP_SCREEN_ON = "scorekeeper.keepScreenOn";
export const PAGES = "pages-";
export const STATIC = "static-";
export const NOT_SENT = "not-sent";
export const CLAIM = "claim";
export const HAND = "scorekeeper-hand:";
export const LEFT = "scorekeeper-left:";
export const SENT_STORE = "sent";
export const LANGUAGE = "phone-language";
