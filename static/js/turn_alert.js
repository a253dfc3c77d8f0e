// "Your turn", told even to a tab in the background: the tab title changes until the player
// acts or the step passes, an optional short sound (Web Audio: no audio file), and a browser
// notification while the tab is hidden, if she allowed them. The same for every game: it
// reads only `to_move`, `seat` and `result` of the `state` messages.

import { h } from "./dom.js";

const SOUND_KEY = "coven:turn-sound";
const MARK = "● ";

export function createTurnAlert({ t, code }) {
  const baseTitle = document.title;
  let wasMyTurn = false;
  let marked = false;
  let audio = null;

  const soundOn = () => {
    try {
      return localStorage.getItem(SOUND_KEY) === "1";
    } catch {
      return false;
    }
  };

  function setTitle() {
    document.title = marked ? `${MARK}${t("room.your_turn_title")} — ${baseTitle}` : baseTitle;
    document.documentElement.dataset.myTurn = marked ? "1" : "0";
  }

  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio ||= new Context();
      if (audio.state === "suspended") audio.resume().catch(() => {});
      // Two soft notes, a fifth apart, a fifth of a second in all.
      const now = audio.currentTime;
      for (const [i, freq] of [660, 990].entries()) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        const start = now + i * 0.1;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.1);
        osc.connect(gain).connect(audio.destination);
        osc.start(start);
        osc.stop(start + 0.11);
      }
    } catch {
      /* no sound is no harm */
    }
  }

  function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
    try {
      const note = new Notification(t("room.your_turn_title"), { body: baseTitle, tag: `coven-turn-${code}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      /* some browsers allow notifications only from a service worker */
    }
  }

  return {
    /** Every `state` message: alert on the step where this seat begins to owe a decision. */
    update(message) {
      const seat = message.seat;
      const mine = seat !== null && seat !== undefined && !message.result && (message.to_move || []).includes(seat);
      if (mine && !wasMyTurn) {
        marked = true;
        if (soundOn()) beep();
        notify();
      }
      if (!mine) marked = false;
      wasMyTurn = mine;
      setTitle();
    },
    /** She acted: the title goes back, even if her turn goes on (a sub-action). */
    acted() {
      marked = false;
      setTitle();
    },
    /** Her move was refused: it is still her turn. */
    rejected() {
      marked = wasMyTurn;
      setTitle();
    },
    /** A language switch. */
    redraw: setTitle,
    /** The controls: the sound toggle and the notification permission button. */
    controls() {
      const box = h("div", { class: "turn-alerts stack small", "data-testid": "turn-alerts" });
      const sound = h("input", {
        type: "checkbox",
        checked: soundOn(),
        "data-testid": "turn-sound",
        onchange: (event) => {
          try {
            localStorage.setItem(SOUND_KEY, event.target.checked ? "1" : "0");
          } catch {
            /* private mode: the choice lasts this page */
          }
          if (event.target.checked) beep(); // a sample, and the click unlocks audio
        },
      });
      box.append(h("label", { class: "check" }, sound, " ", t("room.turn_sound")));
      if (window.isSecureContext === false) {
        // (plain http on a LAN address: the browser refuses notifications whatever one allows)
        box.append(h("p", { class: "muted" }, t("room.turn_notify_insecure")));
      } else if ("Notification" in window && Notification.permission === "default") {
        box.append(
          h(
            "button",
            {
              class: "btn small",
              type: "button",
              "data-testid": "turn-notify",
              onclick: async (event) => {
                const button = event.currentTarget;
                try {
                  await Notification.requestPermission();
                } catch {
                  /* refused or unsupported */
                }
                button.remove();
              },
            },
            t("room.turn_notify"),
          ),
        );
      } else if ("Notification" in window && Notification.permission === "denied") {
        box.append(h("p", { class: "muted" }, t("room.turn_notify_denied")));
      }
      return box;
    },
  };
}
