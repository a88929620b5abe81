"""French and English texts of the dashboard: one table of message ids → (fr, en).

Qt's own translation tooling (``lupdate``/``lrelease`` and ``.qm`` files) is not part of
PySide6-Essentials, so the dashboard keeps its texts in this plain table instead. Widgets call
:func:`tr` with a message id and ``str.format`` keywords; the language is chosen once at start
(:func:`set_language`) from ``--lang`` or the system locale (French when it is French).
"""

from __future__ import annotations

import locale
import os

__all__ = ["LANGUAGES", "MESSAGES", "default_language", "event_word", "language", "overlay_words",
           "player_word", "set_language", "tr"]

LANGUAGES: tuple[str, ...] = ("fr", "en")

#: message id → (French, English). Keep ids stable: tests and widgets refer to them.
MESSAGES: dict[str, tuple[str, str]] = {
    # window and screens
    "app.title": ("Arbitre — Grimpe!", "Arbitre — Grimpe!"),
    "tab.game": ("Partie", "Game"),
    "tab.live": ("Direct", "Live"),
    "tab.review": ("Revoir", "Review"),
    "tab.history": ("Historique", "History"),
    "menu.file": ("&Fichier", "&File"),
    "menu.open_video": ("Ouvrir une vidéo…", "Open a video…"),
    "menu.open_camera": ("Caméra…", "Camera…"),
    "menu.sample": ("Vidéo d'exemple", "Sample video"),
    "menu.export_csv": ("Exporter la feuille de score (CSV)…", "Export score sheet (CSV)…"),
    "menu.export_html": ("Exporter la feuille de score (HTML)…", "Export score sheet (HTML)…"),
    "menu.quit": ("&Quitter", "&Quit"),
    # game screen
    "game.new": ("Nouvelle partie", "New game"),
    "game.players": ("Joueurs (un par ligne, 1 à 6)", "Players (one per line, 1 to 6)"),
    "game.solitaire": ("Solitaire", "Solitaire"),
    "game.rounds": ("Manches", "Rounds"),
    "game.fault_code": ("Faute", "Fault"),
    "game.start": ("Commencer", "Start"),
    "game.none": ("Aucune partie en cours. Entrez les joueurs et commencez.",
                  "No game in progress. Enter the players and start."),
    "game.phase.build": ("Construction de la voie", "Building the route"),
    "game.phase.climb": ("Manche {round} sur {rounds}", "Round {round} of {rounds}"),
    "game.phase.place": ("{player} place la carte suivante", "{player} places the next card"),
    "game.phase.over": ("Partie terminée", "Game over"),
    "game.turn": ("À {player} de jouer", "{player} to play"),
    "game.holds": ("Prises : {holds} / {trigger}", "Holds: {holds} / {trigger}"),
    "game.card": ("Carte", "Card"),
    "game.rotation": ("Rotation", "Rotation"),
    "game.slot": ("Emplacement", "Slot"),
    "game.place": ("Poser la carte", "Place card"),
    "game.legal_slots": ("Emplacements permis : {slots}", "Legal slots: {slots}"),
    "game.record": ("Enregistrer l'essai", "Record attempt"),
    "game.score": ("Score", "Score"),
    "game.result": ("Résultat", "Result"),
    "game.finish": ("Terminer la partie", "Finish game"),
    "game.pending": ("Enregistrement en attente : {name} — verdict vidéo : {verdict}. Il sera "
                     "joint au prochain essai enregistré.",
                     "Recording waiting: {name} — video verdict: {verdict}. It goes with the "
                     "next attempt recorded."),
    "game.record_video_verdict": ("Enregistrer le verdict vidéo", "Record the video verdict"),
    "game.round_table": ("Tableau des manches", "Round table"),
    "game.total": ("Total", "Total"),
    "game.round_n": ("M{n}", "R{n}"),
    "game.chart": ("Scores cumulés par manche", "Cumulative score by round"),
    "game.winner": ("Vainqueur : {names}", "Winner: {names}"),
    "game.winners": ("Vainqueurs ex æquo : {names}", "Shared win: {names}"),
    "game.resumed": ("Partie n°{id} reprise", "Game #{id} resumed"),
    "game.saved_route": ("Voie enregistrée : {path}", "Route saved: {path}"),
    "game.save_route": ("Enregistrer la voie…", "Save route…"),
    "game.load_route": ("Reconstruire une voie…", "Rebuild a route…"),
    "game.illegal": ("Coup refusé : {reason}", "Move refused: {reason}"),
    "game.route": ("Voie", "Route"),
    "route.start_zone": ("zone de départ", "start zone"),
    "route.finish_zone": ("zone d'arrivée", "finish zone"),
    "colour.black": ("noir", "black"),
    "colour.blue": ("bleu", "blue"),
    "colour.green": ("vert", "green"),
    "colour.yellow": ("jaune", "yellow"),
    "colour.red": ("rouge", "red"),
    "result.summit": ("sommet", "summit"),
    "result.fault": ("faute", "fault"),
    "result.incomplete": ("incomplet", "incomplete"),
    # live screen
    "live.source": ("Source", "Source"),
    "live.camera": ("Caméra", "Camera"),
    "live.file": ("Fichier", "File"),
    "live.sample": ("Exemple", "Sample"),
    "live.resolution": ("Résolution", "Resolution"),
    "live.open": ("Ouvrir", "Open"),
    "live.close": ("Fermer", "Close"),
    "live.start_attempt": ("Démarrer l'essai (espace)", "Start attempt (space)"),
    "live.stop_attempt": ("Arrêter l'essai (espace)", "Stop attempt (space)"),
    "live.recording": ("● Enregistrement — {player}", "● Recording — {player}"),
    "live.no_source": ("Aucune source vidéo. Choisissez une caméra, un fichier ou l'exemple.",
                       "No video source. Choose a camera, a file or the sample."),
    "live.fps": ("{fps:.1f} images/s · latence {latency_ms:.0f} ms · {dropped} perdues",
                 "{fps:.1f} frames/s · latency {latency_ms:.0f} ms · {dropped} dropped"),
    "live.camera_lost": ("Caméra {source} perdue : {reason}. Nouvelle tentative dans {s:.0f} s… "
                         "La partie n'est pas touchée.",
                         "Camera {source} lost: {reason}. Retrying in {s:.0f} s… "
                         "The game is untouched."),
    "live.camera_back": ("Caméra {source} reconnectée", "Camera {source} reconnected"),
    "live.end_of_file": ("Fin de la vidéo {source}", "End of video {source}"),
    "live.cannot_open": ("Impossible d'ouvrir {source} : {reason}", "Cannot open {source}: {reason}"),
    "live.evidence": ("Preuves", "Evidence"),
    "live.move": ("Mouvement en cours : {fingers} doigts → {points} pts",
                  "Current move: {fingers} fingers → {points} pts"),
    "live.fingers_down": ("Doigts posés : {n}", "Fingers down: {n}"),
    "live.verdict": ("Verdict : {result}, {score} pts", "Verdict: {result}, {score} pts"),
    "live.fault": ("FAUTE {code} : {detail}", "FAULT {code}: {detail}"),
    "live.camera_place": ("Caméra : {elevation:.0f}° au-dessus de la voie, à environ {height:.0f} mm de haut",
                          "Camera: {elevation:.0f}° above the route, about {height:.0f} mm high"),
    "live.camera_low": ("Caméra basse : sous {low:.0f}° l'arbitre se trompe plus souvent, montez-la",
                        "Camera low: below {low:.0f}° the referee misjudges more often; raise it"),
    "marker.down": ("pose {finger} → {target}", "down {finger} {target}"),
    "marker.card_moved": ("carte {card} bougée", "card_moved {card}"),
    "marker.other_hand": ("autre main", "other_hand"),
    "marker.up": ("lâche {finger}", "up {finger}"),
    "marker.check": ("à vérifier : {what} (certitude {c:.2f})", "to check: {what} (confidence {c:.2f})"),
    "marker.move": ("mouvement {i} : {fingers} doigts, {points} pts", "move {i}: {fingers} fingers, {points} pts"),
    "marker.order_fault": ("ordre : {moved} jugé avant {before} (trop proches pour les ordonner ; "
                           "l'autre ordre donnerait {fault})",
                           "order: {moved} judged before {before} (too close to tell; the other "
                           "order would be {fault})"),
    "marker.order_points": ("ordre : {moved} jugé avant {before} (trop proches pour les ordonner ; "
                            "l'autre ordre compterait {lost} pts de moins, le doute profite au "
                            "grimpeur)",
                            "order: {moved} judged before {before} (too close to tell; the other "
                            "order would count {lost} pts fewer, the doubt goes to the climber)"),
    "live.hands_only": ("Arbitre vidéo absent (vision.pipeline) : mains seulement, pas de verdict "
                        "automatique. Saisissez le verdict à la main.",
                        "Video referee missing (vision.pipeline): hands only, no automatic "
                        "verdict. Enter the verdict by hand."),
    "live.referee_off": ("Arbitre vidéo désactivé : mains seulement, pas de verdict automatique. "
                         "Saisissez le verdict à la main ou chargez un journal d'événements.",
                         "Video referee off: hands only, no automatic verdict. Enter the "
                         "verdict by hand or load an event log."),
    "live.referee_on": ("Arbitre vidéo actif", "Video referee active"),
    "live.hands": ("{n} main(s) vue(s)", "{n} hand(s) seen"),
    "live.worker_error": ("Erreur du lecteur vidéo : {error}", "Video reader error: {error}"),
    "live.attempt_saved": ("Essai n°{id} enregistré : {result}, {score} pts",
                           "Attempt #{id} saved: {result}, {score} pts"),
    "live.no_player": ("Pas d'essai attendu : la partie n'est pas en manche.",
                       "No attempt expected: the game is not in a round."),
    # review screen
    "review.open": ("Ouvrir un enregistrement…", "Open a recording…"),
    "review.play": ("Lecture", "Play"),
    "review.pause": ("Pause", "Pause"),
    "review.step_back": ("◀ Image", "◀ Frame"),
    "review.step": ("Image ▶", "Frame ▶"),
    "review.next_event": ("Événement suivant »", "Next event »"),
    "review.speed": ("Vitesse", "Speed"),
    "review.frame": ("Image {i} / {n} · {t:.2f} s", "Frame {i} / {n} · {t:.2f} s"),
    "review.nothing": ("Ouvrez un enregistrement (vidéo + fichier d'images) ou une vidéo.",
                       "Open a recording (video + sidecar) or a video."),
    "review.auto": ("Verdict automatique", "Automatic verdict"),
    "review.final": ("Verdict retenu", "Final verdict"),
    "review.overrides": ("Décisions de l'arbitre humain", "Referee's overrides"),
    "review.cancel_fault": ("Annuler la faute", "Cancel the fault"),
    "review.impose_fault": ("Imposer une faute", "Impose a fault"),
    "review.set_fingers": ("Changer les doigts du mouvement", "Change the move's fingers"),
    "review.move": ("Mouvement", "Move"),
    "review.fingers": ("Doigts", "Fingers"),
    "review.apply": ("Appliquer", "Apply"),
    "review.clear": ("Tout annuler", "Clear all"),
    "review.evidence_none": ("Pas de preuve à cette image.", "No evidence at this frame."),
    "review.confidence": ("Certitude du contact :", "Contact confidence:"),
    "review.hand": ("main {side} ({score:.2f})", "{side} hand ({score:.2f})"),
    "review.hand_left": ("gauche", "left"),
    "review.hand_right": ("droite", "right"),
    "review.event_confidence": ("    certitude {c:.2f}", "    confidence {c:.2f}"),
    "export.fault_banner": ("FAUTE {code} à {t:.2f} s", "FAULT {code} @ {t:.2f} s"),
    # the words drawn on the judged video (live view, judge-video's annotated video; OpenCV
    # draws them without accents): see overlay_words
    "overlay.status": ("t {t:5.2f}s  image {frame}  mouvements {moves}  doigts {fingers}  points {points}",
                       "t {t:5.2f}s  frame {frame}  moves {moves}  fingers {fingers}  points {points}"),
    "overlay.fault": ("FAUTE {code} ({t:.2f}s)", "FAULT {code} at {t:.2f}s"),
    "overlay.summit": ("SOMMET  score {score}", "SUMMIT  score {score}"),
    "overlay.other_hand": ("autre main", "other hand"),
    "overlay.other_hand_skin": ("autre main (peau)", "other hand (skin)"),
    "review.event.down": ("pose", "down"),
    "review.event.up": ("lâche", "up"),
    "review.event.card_moved": ("carte bougée", "card moved"),
    "review.event.other_hand": ("autre main", "other hand"),
    "review.judging": ("Jugement de {name}… image {frame}", "Judging {name}… frame {frame}"),
    "review.export_clip": ("Exporter le clip annoté…", "Export annotated clip…"),
    "review.clip_saved": ("Clip enregistré : {path}", "Clip saved: {path}"),
    "review.sidecar_missing": ("Pas de fichier d'images : recherche par numéro d'image.",
                               "No sidecar: seeking by frame number."),
    "review.attempt": ("Essai n°{id} · {player} · manche {round}",
                       "Attempt #{id} · {player} · round {round}"),
    # history
    "history.refresh": ("Actualiser", "Refresh"),
    "history.resume": ("Reprendre la partie", "Resume game"),
    "history.review": ("Revoir l'essai", "Review attempt"),
    "history.move_cols": ("Coup|Joueur|Notation", "Ply|Player|Move"),
    "history.cols": ("N°|Date|Jeu|État|Joueurs|Résultat", "#|Date|Game|Status|Players|Result"),
    "history.attempt_cols": ("N°|Manche|Joueur|Auto|Retenu|Points|Vidéo",
                             "#|Round|Player|Auto|Final|Points|Video"),
    "status.active": ("en cours", "active"),
    "status.finished": ("terminée", "finished"),
    "status.abandoned": ("abandonnée", "abandoned"),
    # quoridor screen
    "tab.quoridor": ("Quoridor", "Quoridor"),
    "qr.none": ("Aucune partie de Quoridor. Entrez les joueurs et commencez, ou reprenez une "
                "partie.", "No Quoridor game. Enter the players and start, or resume a game."),
    "qr.new": ("Nouvelle partie de Quoridor", "New Quoridor game"),
    "qr.names": ("Joueurs", "Players"),
    "qr.players": ("Nombre de joueurs", "Number of players"),
    "qr.to_play": ("Coup {n} : à {player} de jouer", "Move {n}: {player} to play"),
    "qr.winner": ("{player} a gagné en {n} coups", "{player} has won in {n} moves"),
    "qr.table_cols": ("Joueur|Case|Murs|Chemin", "Player|Square|Walls|Path"),
    "qr.moves": ("Coups joués", "Moves"),
    "qr.enter": ("Jouer un coup (case e2 ou mur e3h)", "Play a move (square e2 or wall e3h)"),
    "qr.play": ("Jouer", "Play"),
    "qr.undo": ("Annuler le dernier coup", "Undo last move"),
    "qr.hint": ("Conseil", "Hint"),
    "qr.thinking": ("Recherche d'un coup ({s:.0f} s)…", "Searching for a move ({s:.0f} s)…"),
    "qr.hint_text": ("Conseil pour {player} : {move} — {evaluation} — chemins : {paths}",
                     "Hint for {player}: {move} — {evaluation} — paths: {paths}"),
    "qr.hint_failed": ("Le conseil a échoué : {error}", "The hint failed: {error}"),
    "qr.export": ("Exporter la partie (.txt)…", "Export the record (.txt)…"),
    "qr.question": ("Coup incertain : à vérifier", "Uncertain move: please check"),
    "qr.question_text": ("Coup {ply} ({player}), image {frame} : la caméra a vu « {observed} » "
                         "mais ne l'accepte pas ({reason}). Confirmez un coup proposé, tapez le "
                         "vrai coup, ou ignorez si rien n'a été joué.",
                         "Move {ply} ({player}), frame {frame}: the camera saw “{observed}” but "
                         "does not accept it ({reason}). Confirm a proposed move, type the real "
                         "move, or dismiss if nothing was played."),
    "qr.held": (" {n} coup(s) vu(s) depuis attendent la réponse.",
                " {n} move(s) seen since wait for the answer."),
    "qr.confirm": ("Confirmer", "Confirm"),
    "qr.correct": ("Corriger", "Correct"),
    "qr.dismiss": ("Ignorer (rien n'a été joué)", "Dismiss (nothing was played)"),
    "qr.source.manual": ("saisi", "typed"),
    "qr.source.camera": ("caméra", "camera"),
    "qr.source.confirmed": ("confirmé", "confirmed"),
    "qr.source.corrected": ("corrigé", "corrected"),
    "qr.source.stored": ("repris", "resumed"),
    "qr.no_source": ("Pas de vidéo : ouvrez une caméra ou un fichier, ou jouez les coups à la "
                     "main à droite.", "No video: open a camera or a file, or enter the moves "
                     "by hand on the right."),
    "qr.no_source_short": ("Pas de vidéo", "No video"),
    "qr.rendering_sample": ("Pas de vidéo d'exemple installée : rendu d'une partie de "
                            "Quoridor (une seule fois, ~15 s)…",
                            "No sample video installed: rendering a Quoridor game (once, "
                            "~15 s)…"),
    "qr.reopen_source": ("Le nombre de joueurs a changé : la vidéo est fermée, ouvrez-la à "
                         "nouveau pour cette partie.", "The number of players changed: the "
                         "video was closed; open it again for this game."),
    "qr.searching": ("Recherche du plateau : {problem}", "Looking for the board: {problem}"),
    "qr.found": ("Plateau trouvé, couleurs des pions apprises (image {frame})",
                 "Board found, pawn colours learned (frame {frame})"),
    "qr.mid_game": ("La caméra apprend les pions sur la position de départ : elle ne peut "
                    "suivre qu'une partie filmée depuis le début.",
                    "The camera learns the pawns from the start position: it can only follow "
                    "a game filmed from the start."),
    "qr.state.clear": ("Image {frame} : plateau lisible", "Frame {frame}: board clear"),
    "qr.state.hand": ("Image {frame} : une main couvre le plateau", "Frame {frame}: a hand "
                      "covers the board"),
    "qr.state.unsure": ("Image {frame} : lecture incertaine", "Frame {frame}: reading unsure"),
    # errors
    "error.title": ("Erreur", "Error"),
    "error.no_display": (
        "Pas d'écran : ni DISPLAY ni WAYLAND_DISPLAY ne sont définis et QT_QPA_PLATFORM non plus. "
        "Lancez depuis une session graphique, ou QT_QPA_PLATFORM=offscreen pour des captures, ou "
        "`arbitre grimpe judge` pour juger dans le terminal.",
        "No display: neither DISPLAY nor WAYLAND_DISPLAY is set, and QT_QPA_PLATFORM is not "
        "either. Run from a desktop session, or set QT_QPA_PLATFORM=offscreen for screenshots, "
        "or use `arbitre grimpe judge` to judge in the terminal.",
    ),
    "export.saved": ("Exporté : {path}", "Exported: {path}"),
}

_current = "en"


def default_language(env: dict[str, str] | None = None) -> str:
    """``"fr"`` when the system locale is French (LC_ALL, LC_MESSAGES, LANG, then Python's
    locale), else ``"en"``."""
    env = dict(os.environ) if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        val = env.get(var)
        if val:
            return "fr" if val.lower().startswith("fr") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "fr" if loc.lower().startswith("fr") else "en"


def set_language(lang: str | None) -> str:
    """Choose the language (``"fr"``/``"en"``; None = the system's); returns the one chosen."""
    global _current
    chosen = default_language() if lang is None else lang
    if chosen not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, not {lang!r}")
    _current = chosen
    return chosen


def language() -> str:
    return _current


def tr(msgid: str, **kwargs: object) -> str:
    """The text of ``msgid`` in the current language, formatted with ``kwargs``.

    An unknown id returns the id itself (visible in the window, caught by the i18n test)."""
    pair = MESSAGES.get(msgid)
    if pair is None:
        return msgid
    text = pair[0] if _current == "fr" else pair[1]
    return text.format(**kwargs) if kwargs else text


def player_word(word: object) -> str:
    """A finger or zone name (``ring``, ``start``...) in the current language; anything else
    (a hold id, a card number) as it is."""
    from games.grimpe.climb import PLAYER_WORDS

    return PLAYER_WORDS.get(_current, {}).get(str(word), str(word))


def event_word(kind: object) -> str:
    """An event kind (``down``, ``up``, ``card_moved``, ``other_hand``) in the current
    language; an unknown kind as it is."""
    msgid = f"review.event.{kind}"
    text = tr(msgid)
    return str(kind) if text == msgid else text


def overlay_words(lang: str | None = None) -> dict[str, str]:
    """The words drawn on the judged video (the keys of :data:`vision.annotate.OVERLAY_WORDS`:
    the status line, fault and summit banners, the other hand, the fingers and zones) in
    ``lang`` (None: the current language), without changing the current language."""
    from games.grimpe.climb import PLAYER_WORDS

    lang = lang or _current
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, not {lang!r}")
    k = 0 if lang == "fr" else 1
    words = {key: MESSAGES[f"overlay.{key}"][k]
             for key in ("status", "fault", "summit", "other_hand", "other_hand_skin")}
    names = PLAYER_WORDS.get(lang, {})
    words.update({w: names.get(w, w) for w in ("thumb", "index", "middle", "ring", "little", "start", "finish")})
    return words
