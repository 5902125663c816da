"""What Crossroads' lab report adds: gold by source, trading, and who trades with whom."""

from __future__ import annotations

from ...core.figures import Bars, ReportFigures, Heatmap, Length, Mean, Pair, PairTable, SeatStat, Sentence

#: trades a game between agents, from ``trades_with_J``: each seat's trades with seat J
PARTNERS = PairTable("trades_with_")

#: the report's Crossroads figures
FIGURES = ReportFigures(
    length=Length("rounds", "rounds"),
    sentences=(
        Sentence("The {agent} agent gains {income:.1f} gold from income, {trade_gold:.1f} from trades and pays "
                 "{fees:.1f} in fees, with {trades:.1f} trades a game.",
                 {k: Mean(SeatStat(k)) for k in ("income", "trade_gold", "fees", "trades")}, per_agent=True),
        Sentence("Who trades with whom: the {most.row} agent trades most with the {most.col} agent ({most.value:.1f} "
                 "times a game), the {least.row} agent least with the {least.col} agent ({least.value:.1f}).",
                 {"most": Pair(PARTNERS), "least": Pair(PARTNERS, most=False)}),
    ),
    charts=(
        Bars("gold", "Gold by source per agent (mean a game)", "Gold by source", "gold",
             # fees are paid: drawn below the axis
             {"income": Mean(SeatStat("income")), "trade gold": Mean(SeatStat("trade_gold")),
              "fees paid": Mean(SeatStat("fees"), scale=-1.0)}, stacked=True),
        Bars("trades", "Trades, offers and refusals per agent (mean a game)", "Trading", "per game",
             {k: Mean(SeatStat(k)) for k in ("offers", "trades", "refused")}),
        Heatmap("partners", "Who trades with whom: trades a game between agents", "Trades a game with each agent",
                PARTNERS, fmt="{:.2f}"),
    ),
)
