package htmlreport

import "html/template"

var gameTmpl = template.Must(template.New("game").Parse(`<section class="game" id="{{.ID}}" data-game="{{.ID}}" aria-labelledby="{{.ID}}-title">
<header><h2 id="{{.ID}}-title">{{.Title}}</h2>{{if .Sub}}<p class="muted">{{.Sub}}</p>{{end}}</header>
<div class="game-layout">
<div class="viewer" id="{{.ID}}-viewer" aria-live="polite">
<div class="ply-view" data-shown="0"><h3>Start position</h3><div class="board-wrap">{{.Start}}</div></div>
</div>
<div class="side">
<figure class="graph" aria-label="Evaluation graph">{{.Graph}}<figcaption class="muted">White's winning chances (Win%) after each move; markers: <span class="key inaccuracy">?! inaccuracy</span> <span class="key mistake">? mistake</span> <span class="key blunder">?? blunder</span></figcaption></figure>
<table class="players"><caption>Accuracy and judgements</caption>
<thead><tr><th scope="col">Player</th><th scope="col">Accuracy</th><th scope="col">ACPL</th><th scope="col">Inaccuracies</th><th scope="col">Mistakes</th><th scope="col">Blunders</th></tr></thead>
<tbody>{{range .Players}}<tr class="{{.Side}}"><th scope="row"><span class="side-dot {{.Side}}" aria-hidden="true"></span>{{.Name}}</th><td>{{.Accuracy}}</td><td>{{.ACPL}}</td><td>{{.Inaccuracy}}</td><td>{{.Mistake}}</td><td>{{.Blunder}}</td></tr>{{end}}</tbody>
</table>
<nav class="moves" aria-label="Moves ({{.Judged}} judged)"><ol>
{{range .Rows}}<li value="{{.No}}"><span class="no">{{.No}}.</span>{{if .White}}{{template "mv" .White}}{{else}}<span class="mv empty">…</span>{{end}}{{if .Black}}{{template "mv" .Black}}{{end}}</li>
{{end}}</ol></nav>
</div>
</div>
{{if .HasEWR}}{{template "ewr" .}}{{end}}
{{with .Compare}}{{template "compare" .}}{{end}}
<template id="{{.ID}}-p0"><div class="ply-view" data-shown="0"><h3>Start position</h3><div class="board-wrap">{{.Start}}</div></div></template>
{{$id := .ID}}{{range .Plies}}<template id="{{$id}}-p{{.Ply}}"><div class="ply-view" data-shown="{{.Ply}}">
<h3>{{.Label}}{{.NAG}}{{if .Judgement}} <span class="badge {{.Class}}">{{.Judgement}}</span>{{end}}</h3>
<div class="boards"><figure class="board-wrap">{{.Board}}<figcaption>After {{.Label}}{{if .Eval}} · eval {{.Eval}}{{end}}</figcaption></figure>
{{if .HasBest}}<figure class="board-wrap best">{{.BestBoard}}<figcaption>Before the move: <span class="arrow-key played">played {{.SAN}}</span> <span class="arrow-key best">best {{.BestSAN}}</span></figcaption></figure>{{end}}</div>
{{if .Comment}}<p class="comment">{{.Comment}}</p>{{end}}
{{if .Line}}<p class="line"><strong>Best line:</strong> {{.Line}}</p>{{end}}
{{with .EWR}}{{if .Error}}<p class="ewr-line">Expected winrate not computed: {{.Error}}</p>{{else}}<p class="ewr-line"><strong>Expected winrate</strong> (Maia {{.Rating}}): played {{.Played.SAN}} {{.Played.Winrate}} ({{.Played.Confidence}}){{if .PlayedWasBest}}, the best practical move{{else}} · best practical {{.Best.SAN}} {{.Best.Winrate}} ({{.Best.Confidence}}){{end}}{{if .Partial}} · partial{{end}}</p>{{end}}{{end}}
</div></template>
{{end}}</section>
{{define "mv"}}<button type="button" class="mv {{.Class}}" data-ply="{{.Ply}}" aria-label="{{.Label}}{{if .Judgement}}, {{.Judgement}}{{end}}">{{.SAN}}{{if .NAG}}<span class="nag">{{.NAG}}</span>{{end}}</button>{{end}}
{{define "ewr"}}<section class="ewr" aria-labelledby="{{.ID}}-ewr-title">
<h3 id="{{.ID}}-ewr-title">Critical moments: expected winrate</h3>
<p class="muted">The expected winrate of a move is the mover's chance of winning (draws count half) if both sides go on playing like humans of the given Maia level (Maia predicts the moves, Stockfish evaluates the positions). The best practical move is the move with the highest expected winrate; confidence is the share of likely continuations that was evaluated.</p>
{{if .EWR}}<div class="ewr-list">{{range .EWR}}<article class="ewr-moment" data-ewr-ply="{{.Ply}}" aria-label="{{.Label}}, {{.Why}}">
<figure class="board-wrap">{{.Board}}<figcaption>Before {{.Label}}{{if .Played}}: <span class="arrow-key played">played {{.Played.SAN}}</span>{{if not .PlayedWasBest}} <span class="arrow-key best">best practical {{.Best.SAN}}</span>{{end}}{{end}}</figcaption></figure>
<div class="ewr-figures">
<h4><button type="button" class="mv {{.Class}}" data-ply="{{.Ply}}" aria-label="Show {{.Label}} in the game">{{.Label}}</button> <span class="muted">{{.Why}}</span></h4>
{{if .Error}}<p class="ewr-error">Not computed: {{.Error}}</p>{{else}}<table class="ewr-table"><caption>Expected winrate for a Maia {{.Rating}} player (opponent Maia {{.OpponentRating}})</caption>
<thead><tr><th scope="col">Move</th><th scope="col">Expected winrate</th><th scope="col">Confidence</th><th scope="col">Stockfish winrate</th></tr></thead>
<tbody><tr class="played"><th scope="row">Played {{.Played.SAN}}</th><td><meter min="0" max="1" value="{{.Played.Value}}" aria-hidden="true"></meter> {{.Played.Winrate}}</td><td>{{.Played.Confidence}} ({{.Played.Coverage}})</td><td>{{.Played.Stockfish}}</td></tr>
{{if .PlayedWasBest}}<tr class="best"><td colspan="4">The played move was the best practical move.</td></tr>{{else}}<tr class="best"><th scope="row">Best practical {{.Best.SAN}}</th><td><meter min="0" max="1" value="{{.Best.Value}}" aria-hidden="true"></meter> {{.Best.Winrate}}</td><td>{{.Best.Confidence}} ({{.Best.Coverage}})</td><td>{{.Best.Stockfish}}</td></tr>{{end}}
</tbody></table>
<p class="muted">Winrate before the move (Stockfish): {{.Base}}{{if .Partial}} · <strong>partial</strong>: the time limit cut the calculation short{{end}}</p>{{range .Warnings}}<p class="muted ewr-warning">{{.}}</p>{{end}}{{end}}
</div></article>
{{end}}</div>{{else}}<p>No critical moment: no move was judged an inaccuracy, mistake or blunder.</p>{{end}}
</section>{{end}}
{{define "compare"}}<section class="compare" aria-label="Comparison with {{.Against}}">
<h3>Comparison with {{.Against}}</h3>
<dl class="figures">
<div><dt>{{.Possessive}} judgements</dt><dd>{{.Lichess}}</dd></div>
<div><dt>Ours</dt><dd>{{.Ours}}</dd></div>
<div><dt>Same name</dt><dd>{{.Exact}} ({{.SameName}})</dd></div>
<div><dt>Precision / recall / F1</dt><dd>{{.Precision}} / {{.Recall}} / {{.F1}}</dd></div>
<div><dt>Plies agreeing</dt><dd>{{.Agree}} of {{.Plies}} ({{.Within}} within one grade)</dd></div>
<div><dt>Eval difference</dt><dd>{{.MAECP}} cp, {{.MAEWin}} Win% (mean absolute, {{.EvalPlies}} plies)</dd></div>
</dl>
<table class="players"><caption>Player figures, ours vs {{.Possessive}}</caption>
<thead><tr><th scope="col">Player</th><th scope="col">Accuracy ours</th><th scope="col">{{.Label}}</th><th scope="col">ACPL ours</th><th scope="col">{{.Label}}</th></tr></thead>
<tbody>{{range .Players}}<tr><th scope="row">{{.Side}}</th><td>{{.OurAcc}}</td><td>{{.LiAcc}}</td><td>{{.OurACPL}}</td><td>{{.LiACPL}}</td></tr>{{end}}</tbody></table>
{{if .Disagreements}}<table class="disagree"><caption>Disagreements</caption>
<thead><tr><th scope="col">Move</th><th scope="col">{{.Label}}</th><th scope="col">Ours</th><th scope="col">Cause</th></tr></thead>
<tbody>{{range .Disagreements}}<tr><td><button type="button" class="mv" data-ply="{{.Ply}}">{{.Label}}</button></td><td>{{.Lichess}}</td><td>{{.Ours}}</td><td>{{.Cause}}</td></tr>{{end}}</tbody></table>{{else}}<p>No disagreements.</p>{{end}}
</section>{{end}}`))
