// Chat and table log at hand: on a wide screen both stay in the side column (its chat form
// never scrolls away, coven.css); on a narrow one they live in a drawer opened by a button fixed
// at the bottom of the screen, with a tab each and unread counters for what arrived while the
// drawer (or that tab) was closed. The chat lines already read are remembered per room, so a
// reload does not count the history again.

import { overlayClosed, overlayOpened } from "./overlays.js";

const NARROW = "(max-width: 980px)";

export function createTalk(code) {
  const talk = document.getElementById("talk");
  const opener = document.getElementById("talk-open");
  const closer = document.getElementById("talk-close");
  const tabs = [...talk.querySelectorAll(".talk-tab")];
  const narrow = window.matchMedia(NARROW);
  const readKey = `coven:chat-read:${code}`;
  const unread = { chat: 0, log: 0 };
  let readUntil = Number(localStorage.getItem(readKey) || 0);
  let latest = 0; // the time of the newest chat line drawn

  const isOpen = () => talk.classList.contains("open");
  // Whether a tab's lines are in front of the player's eyes now.
  const showing = (tab) => !narrow.matches || (isOpen() && talk.dataset.tab === tab);

  function badge(node, count) {
    node.hidden = !count;
    node.textContent = count > 99 ? "99+" : String(count);
  }

  function redraw() {
    badge(talk.querySelector("[data-testid=unread-chat]"), unread.chat);
    badge(talk.querySelector("[data-testid=unread-log]"), unread.log);
    badge(opener.querySelector("[data-testid=unread]"), unread.chat);
    opener.classList.toggle("has-log", unread.log > 0 && !unread.chat);
    opener.setAttribute("aria-expanded", String(isOpen()));
    for (const tab of tabs) {
      const selected = tab.dataset.tab === talk.dataset.tab;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
  }

  function seen() {
    for (const tab of ["chat", "log"]) if (showing(tab)) unread[tab] = 0;
    if (showing("chat") && latest > readUntil) {
      readUntil = latest;
      localStorage.setItem(readKey, String(latest));
    }
    redraw();
  }

  function choose(tab) {
    talk.dataset.tab = tab;
    seen();
    // A list drawn while hidden has no scroll height: show its latest lines now.
    const list = document.getElementById(tab);
    list.scrollTop = list.scrollHeight;
  }

  // The chat first, unless only the log has news.
  function open(tab = unread.chat || !unread.log ? "chat" : "log") {
    talk.classList.add("open");
    document.body.classList.add("talk-shown");
    overlayOpened("talk", () => close({ refocus: false }));
    choose(tab);
    closer.focus();
  }

  // `refocus` false: another overlay closed it and takes the focus itself.
  function close({ refocus = true } = {}) {
    talk.classList.remove("open");
    document.body.classList.remove("talk-shown");
    overlayClosed("talk");
    redraw();
    if (refocus) opener.focus();
  }

  opener.addEventListener("click", () => (isOpen() ? close() : open()));
  closer.addEventListener("click", () => close());
  for (const tab of tabs) tab.addEventListener("click", () => choose(tab.dataset.tab));
  talk.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) close();
    if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && event.target.classList.contains("talk-tab")) {
      const next = talk.dataset.tab === "chat" ? "log" : "chat";
      choose(next);
      talk.querySelector(`.talk-tab[data-tab="${next}"]`).focus();
    }
  });
  narrow.addEventListener("change", () => {
    if (!narrow.matches && isOpen()) close({ refocus: false });
    seen();
  });
  redraw();

  return {
    /** A chat line was drawn: counted unless it is her own, already read, or in view. */
    chatLine({ mine, at }) {
      latest = Math.max(latest, at);
      if (!mine && at > readUntil && !showing("chat")) unread.chat += 1;
      seen();
    },
    /** `count` new table-log lines were drawn. */
    logLines(count) {
      if (count > 0 && !showing("log")) unread.log += count;
      redraw();
    },
  };
}
