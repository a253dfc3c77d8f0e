"""Notifications of a match to people away from its table (issue 20): Web Push to a seat's
devices and posts to a group chat's webhook. Reactions after a commit write them to the
``notifications`` table (``turns``); a dispatcher in every worker sends what is due
(``outbox``), each row once, by whichever worker claims it. See app/README.md."""
