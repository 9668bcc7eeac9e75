// Decodes the service's answers with the generated Kotlin client's models
// (tests/service/test_generated_clients.py) and prints, as one JSON object,
// what the decoded objects hold: the class each union's discriminator chose
// and the fields read through their typed properties, and each listed move
// encoded again as a body for /play. The test compares that with what the
// JSON says.
//
// Usage: Describe game|moves|events FILE [game|moves|events FILE ...]

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.core.JsonParser
import com.fasterxml.jackson.databind.DeserializationContext
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.JsonDeserializer
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.module.SimpleModule
import java.io.File
import java.time.OffsetDateTime
import org.openapitools.client.models.*

// The generated Serializer registers jackson-module-kotlin and the JSR-310
// module, which Debian does not package; Jackson alone builds the data
// classes through their @JsonProperty constructors, and this reads the
// date-times the spec declares.
class DateTimes : JsonDeserializer<OffsetDateTime>() {
    override fun deserialize(parser: JsonParser, context: DeserializationContext): OffsetDateTime =
        OffsetDateTime.parse(parser.text)
}

val mapper: ObjectMapper = ObjectMapper()
    .registerModule(SimpleModule().addDeserializer(OffsetDateTime::class.java, DateTimes()))
    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
    .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
    .setSerializationInclusion(JsonInclude.Include.NON_ABSENT)

fun tableItem(item: TableItem): List<Any?> = when (item) {
    is TableCard -> listOf("TableCard", item.card)
    is Build -> listOf("Build", item.id, item.`value`, item.cards)
    else -> listOf(item.javaClass.simpleName)
}

fun claim(claim: CountOutClaim): List<Any?> = listOf(claim.secured, claim.total, claim.succeeds)

fun awaiting(command: AwaitedCommand?, seats: List<Int>?): List<Any?>? =
    command?.let { listOf(it.value, seats) }

fun game(game: Game): Map<String, Any?> = when (game) {
    is CassinoGame -> mapOf(
        "class" to "CassinoGame", "status" to game.status.value, "version" to game.version, "turn" to game.turn,
        "you" to game.you, "hand" to game.hand, "hands" to game.hands, "table" to game.table.map(::tableItem),
        "seats" to game.seats.map { listOf(it.name, it.score, it.handCount) }, "scores" to game.scores,
        "last_capture" to game.lastCapture?.let { listOf(it.seat, it.cards) },
        "undo_request" to game.undoRequest?.seat,
        "count_out" to game.countOut?.let(::claim), "count_outs" to game.countOuts?.map(::claim),
        "awaiting" to awaiting(game.awaiting?.command, game.awaiting?.seats),
        "result" to game.result?.value, "winners" to game.winners)
    is MassCoolGame -> mapOf(
        "class" to "MassCoolGame", "status" to game.status.value, "version" to game.version, "turn" to game.turn,
        "you" to game.you, "hand" to game.hand, "hands" to game.hands,
        "seats" to game.seats.map { listOf(it.name, it.moneyValue, it.`out`) },
        "awaiting" to awaiting(game.awaiting?.command, game.awaiting?.seats),
        "result" to game.result?.value, "winners" to game.winners, "totals" to game.totals)
    else -> mapOf("class" to game.javaClass.simpleName)
}

fun move(move: Move): List<Any?> = when (move) {
    is TrailMove -> listOf("TrailMove", move.card)
    is CaptureMove -> listOf("CaptureMove", move.card, move.targets)
    is BuildMove -> listOf("BuildMove", move.card, move.`value`, move.targets)
    is PluckMove -> listOf("PluckMove", move.card)
    is StealMove -> listOf("StealMove", move.card, move.targets)
    is BetMove -> listOf("BetMove", move.cards)
    is StopMove -> listOf("StopMove")
    else -> listOf(move.javaClass.simpleName)
}

fun event(event: Event): List<Any?> = listOf(event.javaClass.simpleName, event.type) + when (event) {
    is CardTrailedEvent -> listOf(event.`data`.card)
    is CardsCapturedEvent -> listOf(event.`data`.card, event.`data`.cards)
    is BuildMadeEvent -> listOf(event.`data`.build.id, event.`data`.build.`value`)
    is BetPlacedEvent -> listOf(event.`data`.cards)
    is MoneyCountedEvent -> listOf(event.`data`.winners, event.`data`.reason.value)
    else -> listOf()
}

fun describe(kind: String, text: String): Any = when (kind) {
    "game" -> game(mapper.readValue(text, Game::class.java))
    "moves" -> mapper.readValue(text, MoveList::class.java).moves.let { moves ->
        mapOf("moves" to moves.map(::move), "sent" to moves.map { mapper.readTree(mapper.writeValueAsString(it)) })
    }
    "events" -> mapper.readValue(text, EventPage::class.java).events.map(::event)
    else -> error("unknown kind $kind")
}

fun main(args: Array<String>) {
    val described = args.toList().chunked(2).associate { (kind, path) -> path to describe(kind, File(path).readText()) }
    println(ObjectMapper().writeValueAsString(described))
}
