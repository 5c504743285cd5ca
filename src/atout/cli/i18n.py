"""Player-facing words of the terminal programs, in French (the default) and English."""

from __future__ import annotations

_TEXTS: dict[str, tuple[str, str]] = {
    "you": ("vous", "you"),
    "dealer": ("donneur", "dealer"),
    "target": ("cible", "target"),
    "contract": ("Contrat", "Contract"),
    "by": ("par", "by"),
    "auction": ("Enchères", "Auction"),
    "no_contract": ("pas encore de contrat", "no contract yet"),
    "your_turn_bid": (
        "À vous : une enchère (90H, 100 coeur, 80SA, capotS) ou P (passe)",
        "Your call: a bid (90H, 100 hearts, 80SA, capotS) or P (pass)",
    ),
    "coinche_ok": (", X (coinche)", ", X (coinche)"),
    "surcoinche_ok": (", XX (surcoinche)", ", XX (surcoinche)"),
    "bid_range": ("enchères de {low} à {high}", "bids from {low} to {high}"),
    "capot_ok": (", ou capot", ", or capot"),
    "your_turn_take": ("À vous : P passer, ou prendre (T pour {suit})", "Your turn: P to pass, or take (T for {suit})"),
    "your_turn_take2": (
        "À vous : P passer, ou nommer l'atout (pique, coeur, carreau, trèfle)",
        "Your turn: P to pass, or name trump (spades, hearts, diamonds, clubs)",
    ),
    "your_turn_play": ("À vous de jouer : tapez le numéro de la carte", "Your turn: press the card's number"),
    "declare": ("Vos annonces (avec votre première carte) :", "Your announcements (with your first card):"),
    "declare_none": ("rien", "none"),
    "belote_q": ("Dire « belote » (ou « rebelote ») avec {card} ? o/n", "Say belote (or rebelote) with {card}? y/n"),
    "waiting": ("{seat} réfléchit…", "{seat} is thinking…"),
    "hint": ("Conseil de l'expert : {action}", "The expert's hint: {action}"),
    "hint_wait": ("L'expert réfléchit…", "The expert is thinking…"),
    "last_trick": ("Dernier pli", "Last trick"),
    "no_last_trick": ("Pas encore de pli", "No trick yet"),
    "won_trick": ("{seat} remporte le pli ({points} points)", "{seat} wins the trick ({points} points)"),
    "says_belote": ("{seat} : « belote »", "{seat}: belote"),
    "says_rebelote": ("{seat} : « rebelote »", "{seat}: rebelote"),
    "announces": ("{seat} annonce : {what}", "{seat} announces: {what}"),
    "shown": ("Annonces de {seat} : {what}", "{seat}'s announcements: {what}"),
    "calls": ("{seat} : {call}", "{seat}: {call}"),
    "all_passed": ("Tout le monde passe : on redonne.", "Everyone passed: the next player deals."),
    "saved": ("Partie sauvegardée dans {path}", "Game saved to {path}"),
    "no_save_path": ("Pas de fichier de sauvegarde (option --save)", "No save file (use --save)"),
    "illegal": ("Impossible : {reason}", "Not allowed: {reason}"),
    "unknown_input": ("Je ne comprends pas « {text} »", "I do not understand '{text}'"),
    "deal_over": ("Fin de la donne", "End of the deal"),
    "analysis": ("Vos cartes, double mort (toutes les mains vues)", "Your cards, double dummy (every hand seen)"),
    "analysis_wait": ("Analyse de vos cartes…", "Analysing your cards…"),
    "continue": ("Entrée : donne suivante · q : quitter", "Enter: next deal · q: quit"),
    "match_over": ("Partie terminée : {winner} gagne !", "Game over: {winner} win!"),
    "match_over_keys": ("q : quitter", "q: quit"),
    "score": ("Score", "Score"),
    "keys": (
        "1-8 carte · ? conseil · d dernier pli · s sauver · q quitter · ctrl+s · ctrl+q",
        "1-8 card · ? hint · l last trick · s save · q quit · ctrl+s · ctrl+q",
    ),
    "cost": ("coût", "cost"),
    "no_mistake": ("Aucune erreur : bravo.", "No mistake: well played."),
    "mistakes": ("{n} erreur(s), {points} points perdus", "{n} mistake(s), {points} points lost"),
}


def t(key: str, lang: str = "fr", **values: object) -> str:
    """The text ``key`` in ``lang`` with ``values`` filled in."""
    fr, en = _TEXTS[key]
    return (fr if lang == "fr" else en).format(**values)
