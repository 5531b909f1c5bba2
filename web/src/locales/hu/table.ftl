# Egy asztal oldala (pages/table.js, table/*.js) és a visszajátszás (pages/replay.js).

table-loading = Az asztal betöltése…
table-title = { $game }{ $private ->
    [yes] {" · "}privát
   *[no] {""}
}{ $party ->
    [yes] {" · "}parti
   *[no] {""}
} · { $seconds } mp gondolkodási idő
side-label = Az asztal
announcer-label = Mi történik
seats-label = Helyek
controls-label = Lépéseid
board-as-text = A tábla szövegként
board-later = A tábla a játék kezdetekor jelenik meg.
log-title = Napló

seat-number = { $seat }. hely
bot-name = Gép { $seat }
empty-seat = { $seat }. hely (üres)
seat-who = { $name } ({ $colour })
seat-colour = { $colour }, { $shape }
colour-name = { $colour ->
    [yellow] sárga
    [red] piros
    [green] zöld
    [blue] kék
    [purple] lila
    [orange] narancs
    [white] fehér
    [black] fekete
   *[other] { $colour }
}
shape-name = { $shape ->
    [circle] kör
    [square] négyzet
    [triangle] háromszög
    [diamond] rombusz
    [hexagon] hatszög
   *[down] fordított háromszög
}
tag-host = házigazda
tag-you = te
tag-bot = gép
tag-online = elérhető
tag-offline = nem elérhető
tag-bot-playing-for = gép játszik helyette: { $name }
tag-timed-out = lejárt az idő ×{ $count }
tag-timed-out-entry = lejárt az idő
tag-place = { $place }. hely
tag-wants-rematch = visszavágót kér

connection-live = élő
connection-reconnecting = újracsatlakozás…
connection-closed = lezárva
connection-finished = befejeződött
connection-everyone-left = lezárva: mindenki kilépett
connection-private = ez az asztal privát

turn-waiting-room = Váróterem
turn-game-over = A játék véget ért
turn-yours = Te következel
turn-theirs = Következik: { $name }
clock-seconds = { $seconds } mp

room-waiting-public = Játékosokra vár. Oszd meg a linket:
room-waiting-private = Játékosokra vár. Privát asztal: oszd meg a meghívó linket.
room-link = Link ehhez az asztalhoz
room-copy = Másolás
room-sign-up = Regisztrálj,
room-sign-up-after = hogy leülhess.
room-join = Leülök
room-leave = Kilépek az asztaltól
room-start = Indítás (az üres helyekre gépek ülnek)
room-host-starts = A házigazda indítja a játékot.

controls-watching = Nézőként vagy itt.
controls-bot-playing = Egy gép játszik a helyeden.
controls-reclaim = Visszaveszem a helyemet
controls-choose = Válassz lépést
controls-cancel = Mégse
controls-actions = Műveletek
controls-click-piece = Kattints egy kiemelt bábura, vagy válassz:
controls-start-again = A lépés újrakezdése
controls-all-moves = Minden szabályos lépés ({ $count })
controls-not-your-turn = Nem te következel.
controls-only-move = Az egyetlen lépésedet megtesszük helyetted.
action-roll = Dobás
action-pass = Passz

dice-you-threw = A te dobásod
dice-threw = { $who } dobása
dice-label = { $count ->
    [one] kocka: { $dice }
   *[other] kockák: { $dice }
}
dice-your-turn-to-throw = Te dobsz.

end-title = Vége a játéknak
end-place = {" — "}{ $place }. hely
end-points = , { $points } pont
end-check-dice = A kockák ellenőrzése
end-replay = Visszajátszás
rematch-ask = Visszavágó
rematch-asked = Visszavágót kértél.
rematch-waiting = Visszavágót kértél; még rájuk vársz: { $names }.
rematch-wanted = { $count ->
    [one] Visszavágót kér: { $names }.
   *[other] Visszavágót kérnek: { $names }.
}
rematch-opened = Elkezdődött a visszavágó: irány az új asztal.

log-table = Asztal
log-seat-taken = { $name } leült
log-seat-left = kilépett az asztaltól
log-bot-seated = egy gép leült
log-settings-changed = a beállítások megváltoztak
log-start = a játék elkezdődött
log-finish = a játék véget ért
log-takeover = egy gép átvette a helyet ({ $reason ->
    [timeouts] lejárt idő
    [stalling] húzta az időt
   *[away] távol van
})
log-reclaim = visszavette a helyét
log-closed = az asztalt lezárták
log-threw = {" — "}dobás: { $dice }

said-and = {" és "}
said-your-turn = Te következel.
said-timed-out = Lejárt az ideje: { $who }.
said-seat-taken = { $name } leült.
said-seat-left = { $name } kilépett az asztaltól.
said-bot-seated = Egy gép leült a(z) { $seat }. helyre.
said-start = A játék elkezdődött.
said-takeover = Mostantól gép játszik helyette: { $who }.
said-reclaim = { $who } visszavette a helyét.
said-closed = Az asztalt lezárták: mindenki kilépett.
said-opening-rolled = { $who } kezdő dobása: { $dice }.
said-opening-tie = Döntetlen, újra dobnak: { $who }.
said-first-to-play = { $who } kezd.
said-rolled = { $who } dobása: { $dice }.
said-extra-roll = { $who } újra dobhat.
said-turn-passed = Dob: { $who }.
said-seat-finished = { $who } célba ért, { $place }. hely.
said-game-over = { $count ->
    [one] Vége a játéknak, a győztes: { $who }.
   *[other] Vége a játéknak, a győztesek: { $who }.
}
said-game-over-nobody = Vége a játéknak.

settings-title = Jelzések és billentyűk
settings-sound = Hangjelzés, amikor én következem
settings-notify = Értesítés, amikor én következem és ez az oldal rejtve van
settings-keys = Egybillentyűs lekérdezések
settings-keys-list = Ha az asztalon van a fókusz: T ki következik, D a kockák, C az időm, P hol állnak a bábuim, S az állás, M a lépéseim, ? ez a lista.
query-help = Billentyűk: T ki következik, D a kockák, C az időm, P hol állnak a bábuim, S az állás, M a lépéseim, kérdőjel ez a lista.
query-game-over = A játék véget ért.
query-not-started = A játék még nem kezdődött el.
query-seconds-left = Még { $seconds } másodperc.
query-no-dice = Még senki sem dobott.
query-dice = Kockák: { $dice }.
query-not-seated = Nincs helyed ennél az asztalnál.
query-not-your-turn = Nem te következel, hanem: { $name }.
query-my-clock = Még { $seconds } másodperced van.
query-no-moves = Most nincs lépésed.
query-moves = { $count ->
    [one] A lépésed: { $moves }.
   *[other] { $count } lépésed van: { $moves }.
}

alert-your-turn = Te következel
alert-time-low = Még { $seconds } mp
alert-title = ● { $what } — { $title }

replay-loading = A játék betöltése…
replay-not-over = Ez a játék még nem ért véget:
replay-watch = nézd élőben.
replay-title = Visszajátszás: { $game } — { $players }
replay-side = A visszajátszás
replay-steps = Lépésenként a játékon át
replay-first = Az elejére
replay-previous = Előző
replay-next = Következő
replay-last = A végére
replay-position = Hely a játékban
replay-step = { $step } / { $steps } (seq { $seq })
replay-table = Az asztal
download-json = A felvétel letöltése
table-fresh-dice-on = Friss kockák: minden játékos dobásába belekerül egy titok, amelyet a saját böngészője a kezdés előtt rögzített, így senki, a szerver sem tudhatja előre a kockát, mielőtt a dobást kérik.
table-fresh-dice-off = Ennél az asztalnál a kockák egyedül a szerver rögzített magjából jönnek (a friss kockák ki vannak kapcsolva): a játék után ellenőrizhetők, de a játékosok nem adnak hozzá friss véletlent.
table-fresh-dice-timeout-roll = Dobni szerettél volna, de az óra dobott helyetted a szerver saját kockáival: lehet, hogy a kérésedet visszatartották.
review-title = Elemzés
review-pending = Az elemzés készül…
review-unavailable = Ehhez a játszmához nincs elemzés.
review-search = Minden döntést a szerver hálója értékelt ({ $search }); equity kockaegységenként.
review-seat = { $player }: { $rate } mp döntésenként ({ $band }), { $decisions } döntés, { $errors } hiba, { $blunders } durva hiba, szerencse { $luck }
review-step-none = Ennél a lépésnél nem volt döntés.
review-play = { $player } lépése { $dice }: { $played }
review-cube = { $player }: { $played }
review-best = legjobb: { $best }
review-lost = veszteség { $loss }
review-luck = szerencse { $luck }
review-mark-error = hiba
review-mark-blunder = durva hiba
review-marks = Hibák és durva hibák
review-go = Ugrás a(z) { $step }. lépésre
review-action-double = duplázás
review-action-no_double = nincs duplázás
review-action-too_good = túl jó a duplázáshoz
review-action-take = elfogad
review-action-pass = felad
review-action-beaver = hód
review-band-supernatural = Természetfeletti
review-band-world_class = Világklasszis
review-band-expert = Szakértő
review-band-advanced = Haladó
review-band-intermediate = Középhaladó
review-band-casual_player = Alkalmi játékos
review-band-beginner = Kezdő
review-band-awful = Borzalmas!
hint-ask = Tipp
hint-cube = { $double }; a válasz: { $response } (duplázás nélkül: { $equity })
hint-play = { $play } ({ $equity })
