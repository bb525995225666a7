// Package web is Outpost's local web console (`outpost serve`): a dashboard
// with the bot's status, live games on boards that update over server-sent
// events and the recent games with their summaries; game reports (the
// internal/web/htmlreport rendering of a stored analysis) with the expected
// winrate at the critical moments computed in the background and shown
// inline; the expected-winrate explorer with its ranked list, two-phase
// progress and probability trees that open as soon as Maia has built them,
// fill in their winrates as Stockfish's evaluations arrive and preview
// their nodes' positions on the board; the comparison runs' agreement over
// time; and the knobs editor, which saves named knob sets into the
// configuration file.
//
// Pages are rendered on the server; a little JavaScript adds the live parts.
// Every asset is embedded, nothing is fetched from elsewhere. The server
// listens on loopback unless given an access token, checks the Host header
// against DNS rebinding, refuses cross-site state changes (Origin,
// Sec-Fetch-Site and a CSRF token) and never reads the Lichess token.
package web
