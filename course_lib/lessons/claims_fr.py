"""The claim ledger in French (issue 16): for every claim of ``claims.CLAIMS``, by its key, the words the French
ledger shows.

* ``quote``: verbatim from ``qa/qa-fr.txt``, the course's French translation of the Q&A (pieces joined by ``…``,
  ``[our words]`` in brackets, as in English); ``tests/test_claims_fr.py`` finds each piece in that file, no-break
  spaces included.
* ``plain``: the claim in plain words, a translation of the English ``Claim.plain``.
* ``status`` and ``verdict``: copied from the French notebook's Verdict cell, as the English ones are from the
  English notebook's; the status is the bold words that open the French notebook's Verdict row, in French alone
  (``**Vrai.**``). ``claims.check(..., lang="fr")`` and ``claims.verdict_problems(...,
  lang="fr")`` keep them in step with ``notebooks/fr/``.

Kept as data rather than in the gettext catalogue: the quote is no translation of the English quote but a passage
of ``qa-fr.txt``, and a verdict is a paragraph checked against a notebook, not a message of the code. A change to an
English verdict leaves its French text here, and the tests compare the two (same figures, same API names).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ATTRIBUTION", "CLAIMS", "Words"]

#: The markdown cell every French notebook opens with, right after its title (``tests/test_claims_fr.py``).
ATTRIBUTION = (
    "<small>**D'où viennent les citations.** La question Stack Overflow [« What is the difference of static "
    "Computational Graphs in tensorflow and dynamic Computational Graphs in "
    "Pytorch? »](https://stackoverflow.com/questions/46154189/"
    "what-is-the-difference-of-static-computational-graphs-in-tensorflow-and-dynamic) "
    "et ses trois réponses, par leurs auteurs nommés sur cette page. Publiés en 2017, ces textes sont sous licence "
    "[CC BY-SA 3.0](https://creativecommons.org/licenses/by-sa/3.0/) ([licence des contenus de Stack "
    "Overflow](https://stackoverflow.com/help/licensing)). Ils sont cités ici dans la traduction française du "
    "cours, `qa/qa-fr.txt` (faite d'après l'original anglais de `qa/qa-en.txt`, réponses numérotées de la même "
    "façon), une adaptation diffusée sous la même licence. Le texte entre guillemets français reproduit mot pour "
    "mot cette traduction, orthographe comprise ; tout le reste est l'explication propre au cours.</small>"
)


class Words(NamedTuple):
    """A claim's French words: the quote from ``qa/qa-fr.txt``, the plain words, and once its French notebook has a
    Verdict cell, the status and the verdict."""

    quote: str
    plain: str
    status: str | None = None
    verdict: str | None = None


CLAIMS: dict[str, Words] = {
    "Q": Words(
        "on disait que les graphes étaient statiques [dans TensorFlow] … dans Pytorch, on disait que les graphes "
        "étaient [dynamiques]",
        "Les graphes de TensorFlow sont statiques, ceux de PyTorch dynamiques : une propriété de chaque framework.",
        "ce n'est plus une différence entre frameworks",
        "Aujourd'hui, c'est une différence entre deux modes, que les deux frameworks possèdent. TensorFlow 2 "
        "fonctionne en mode immédiat par défaut et ne construit un graphe statique qu'à l'intérieur de tf.function "
        "(AutoGraph change un if/while sur un tenseur en cond/while_loop ; une boucle Python range(100) se déroule "
        "en 402 opérations). PyTorch s'exécute en mode immédiat et capture des graphes statiques sur demande : "
        "torch.fx refuse le flot de contrôle qui dépend des données, torch.compile capture un ou plusieurs graphes "
        "coupés aux ruptures de graphe (2 graphes, puis un 3e pour l'autre branche), torch.export a besoin de "
        "torch.cond (un prototype) et se spécialise sur les formes de l'exemple faute de dynamic_shapes, et "
        "torch.jit.trace garde une seule branche sans rien dire."),
    # ---------------------------------------------------------------- Réponse 1
    "A1.1": Words(
        "TensorFlow comme PyTorch permettent de spécifier de nouveaux calculs à tout moment.",
        "Les deux frameworks permettent d'ajouter des calculs entre deux exécutions.",
        "vrai",
        "On peut ajouter des opérations à un graphe TensorFlow 1 à tout moment, même entre deux appels de "
        "Session.run (notebook 02, section 7) ; PyTorch enregistre un nouveau graphe à chaque exécution. "
        "TensorFlow 1 paie une modification à l'exécution suivante : les nouveaux nœuds étendent le graphe de la "
        "session, et les exécuteurs qu'elle a déjà construits sont conservés ; une requête jamais exécutée "
        "construit un nouvel exécuteur (direct_session.cc de TensorFlow : ExtendLocked, GetOrCreateExecutors ; "
        "mesuré dans le notebook 05)."),
    "A1.2": Words(
        "TensorFlow a une étape de « compilation » qui pénalise les performances chaque fois que vous modifiez le "
        "graphe.",
        "Modifier un graphe TensorFlow coûte une recompilation.",
        "toujours vrai, dans tous les modes compilés",
        "Une session TensorFlow 1 paie une extension à la première exécution après chaque modification, et un "
        "exécuteur pour chaque requête qu'elle n'a jamais exécutée (le notebook 05 compte les exécuteurs). Notre "
        "moteur recompile toutes les requêtes après n'importe quelle modification. Dans TensorFlow 2, la pénalité est "
        "un traçage par nouvelle signature d'entrée ; dans PyTorch 2, une capture quand les gardes de torch.compile "
        "échouent."),
    "A1.3": Words(
        "TensorFlow atteint donc ses performances optimales quand vous spécifiez le calcul une seule fois, puis "
        "faites passer de nouvelles données par la même suite de calculs.",
        "Définir une fois, exécuter de nombreuses fois : c'est là qu'un graphe statique est le plus rapide.",
        "vrai de tous les modes compilés, dans les deux frameworks",
        "Une exécution en régime établi réutilise ce qui a été compilé (1 compilation, aucun nouvel exécuteur, "
        "1 traçage, 1 capture pour de nombreux appels, comptés). Compilé ne veut pas dire automatiquement plus "
        "rapide : le notebook 05 affiche, d'après chaque exécution, si la compilation est rentable sur un petit et "
        "sur un grand graphe."),
    "A1.4": Words(
        "C'est semblable à l'opposition entre interpréteurs et compilateurs – l'étape de compilation rend les "
        "choses plus rapides, mais elle dissuade aussi les gens de modifier le programme trop souvent.",
        "Les graphes statiques se comportent comme du code compilé, les graphes dynamiques comme du code "
        "interprété.",
        "une bonne analogie, qui vaut désormais pour les deux frameworks",
        "Tous deux partent par défaut de l'interpréteur (TensorFlow 2 et PyTorch en mode immédiat) et offrent un "
        "compilateur (tf.function, torch.compile) ; la compilation devient rentable au bout d'un nombre mesurable "
        "d'exécutions sur un grand graphe, jamais sur un tout petit. (Le notebook 04 montre ce que fait le "
        "compilateur : il a élagué 3 nœuds, en a replié 2 et fusionné 1 ; le notebook 08, un compilateur qui génère "
        "du code et qui rapporte : XLA exécute une chaîne de 30 opérations élément par élément sur une matrice de "
        "16 Mo en un seul noyau fusionné, là où la tf.function seule en exécute 30 ; chaque appel coûte moins, et "
        "XLA prend l'avance en quelques appels, premier appel compris, d'après les médianes qu'il affiche.)"),
    "A1.5": Words(
        "quand vous modifiez le graphe dans TensorFlow (en ajoutant de nouveaux calculs avec l'API ordinaire, ou en "
        "retirant des calculs avec tf.contrib.graph_editor)",
        "On modifie un graphe en ajoutant des opérations avec l'API normale, ou en en retirant avec "
        "tf.contrib.graph_editor.",
        "ajouter marche toujours ; l'outil pour retirer a disparu",
        "Ajouter des opérations avec l'API ordinaire fonctionne dans TensorFlow 1 et, aujourd'hui, dans "
        "tf.compat.v1, même entre deux exécutions. tf.contrib, et graph_editor avec lui, a été retiré dans "
        "TensorFlow 2.0, et tf.Graph n'a aucune méthode publique qui retire une opération."),
    "A1.6": Words(
        "Elle va sérialiser le graphe, puis l'environnement d'exécution sous-jacent va relancer certaines "
        "optimisations",
        "Une modification est envoyée à l'environnement d'exécution sous forme de graphe sérialisé, puis optimisée "
        "de nouveau.",
        "vrai, sur tout le graphe",
        "Au Session.run suivant, les nœuds ajoutés depuis la dernière exécution sont sérialisés dans un GraphDef et "
        "envoyés à l'environnement d'exécution (Session._extend_graph, la ligne que désigne la réponse, s'exécute "
        "toujours). Celui-ci reconstruit alors son état du graphe entier et relance les passes d'avant le "
        "placement, le placeur et les passes d'après le placement sur tous les nœuds (GraphExecutionState::Extend, "
        "puis InitBaseGraph) : le coût grandit avec la taille du graphe, quoi que demande l'exécution. Grappler "
        "s'exécute une fois par nouvelle requête, quand son exécuteur est construit."),
    "A1.7": Words(
        "qui peuvent prendre du temps supplémentaire, peut-être 200usec",
        "Étendre le graphe coûte environ 200 µs.",
        "un coût toujours réel, qui grandit avec le graphe",
        "L'extension seule (ajouter un nœud qu'aucune demande n'utilise, exécuter une demande d'une opération déjà "
        "exécutée, moins une exécution en régime établi de celle-ci) est mesurée sur des graphes de 10 à 3\u202f000 "
        "opérations, avec son rapport au chiffre de 2017 affiché dans le notebook 05 ; elle grandit avec le graphe "
        "entier. L'exécuteur d'une nouvelle requête est un autre coût, mesuré à côté, de même que les traçages et "
        "les captures."),
    "A1.8": Words(
        "exécuter une opération dans un graphe déjà défini, ou dans numpy/PyTorch, peut ne prendre que 1 usec",
        "Une opération coûte environ 1 µs, dans un graphe défini, dans numpy ou dans PyTorch.",
        "toujours le bon ordre de grandeur, par opération",
        "Une opération de plus dans une exécution en régime établi de TensorFlow 1 (la pente du temps d'exécution "
        "sur des graphes de 10 à 3\u202f000 opérations), une opération de numpy et de PyTorch en mode immédiat, "
        "affichées dans le notebook 05 avec leurs rapports au chiffre de 2017. Un appel de Session.run a un coût "
        "fixe bien au-dessus, et une opération de TensorFlow en mode immédiat coûte davantage."),
    # ---------------------------------------------------------------- Réponse 2
    "A2.1": Words(
        "Dans tensorflow, vous devez d'abord définir le graphe, puis vous l'exécutez.",
        "TensorFlow sépare la construction du graphe de son exécution.",
        "vrai pour TensorFlow 1, mais ce n'est plus le comportement par défaut",
        "Vrai pour TensorFlow 1 et, aujourd'hui, pour tf.compat.v1. TensorFlow 2 fonctionne en mode immédiat par "
        "défaut ; le style définir-puis-exécuter survit dans tf.function, qui trace un graphe à son premier appel."),
    "A2.2": Words(
        "Une fois défini, votre graphe est immuable : vous ne pouvez pas ajouter/supprimer de nœuds pendant "
        "l'exécution.",
        "Un graphe TensorFlow ne peut plus changer une fois qu'il s'exécute.",
        "trop catégorique",
        "On peut ajouter des opérations à un graphe TensorFlow 1 à tout moment, même entre deux exécutions ; il "
        "n'est immuable que pendant une exécution et après finalize() (RuntimeError: Graph is finalized and "
        "cannot be modified). Retirer des nœuds n'a pas d'API publique. Une modification se paie à "
        "l'exécution suivante, comme une extension du graphe de la session : les exécuteurs déjà construits "
        "sont conservés, et une requête jamais exécutée paie un nouvel exécuteur (direct_session.cc ; notebook "
        "05). Dans TensorFlow 2, modifier le graphe d'une tf.function impose un retraçage."),
    "A2.3": Words(
        "Dans pytorch, au contraire, vous pouvez changer la structure du graphe pendant l'exécution : vous pouvez "
        "donc ajouter/supprimer des nœuds pendant l'exécution, en changeant dynamiquement sa structure.",
        "Un graphe PyTorch peut prendre une structure différente à chaque exécution.",
        "vrai, avec une précision",
        "Personne ne modifie un graphe : chaque exécution en enregistre un nouveau, si bien qu'une autre entrée "
        "donne un autre graphe (9 contre 3 nœuds autograd dans le notebook 03), et backward() libère les tenseurs que "
        "ce graphe a sauvegardés. "
        "L'enregistrement se paie à chaque exécution ; ce à quoi il renonce, c'est une vue du graphe entier avant "
        "l'exécution."),
    # ---------------------------------------------------------------- Réponse 3
    "A3.1": Words(
        "Les deux frameworks opèrent sur des tenseurs et voient tout modèle comme un graphe orienté acyclique (DAG)",
        "Tout modèle, dans l'un ou l'autre framework, est un DAG d'opérations sur des tenseurs.",
        "vrai pour l'essentiel, avec deux notes",
        "Dans les deux frameworks, des tenseurs circulent sur chaque arête et chaque graphe est un DAG (un cycle "
        "est refusé). Notes : les boucles. Le while_loop de TensorFlow 1 écrivait une arête de retour dans son "
        "graphe ; TensorFlow 2 stocke une boucle comme une seule opération While, acyclique, mais hors de XLA son "
        "environnement d'exécution la réécrit en Enter/Merge/Switch/NextIteration/Exit, arête de retour comprise, "
        "avant de l'exécuter (lower_while_op.cc). Et le graphe de TensorFlow est le programme, celui de PyTorch "
        "l'enregistrement autograd d'une exécution."),
    "A3.2": Words(
        "mais ils diffèrent radicalement dans la façon dont vous pouvez les définir.",
        "Ce qui distingue le plus les deux frameworks, c'est la façon de définir un graphe.",
        "vrai des deux styles, plus des deux frameworks",
        "Le notebook 04 le compte : les mêmes nœuds et les mêmes arêtes dans les deux styles ; la première valeur "
        "du style définir-puis-exécuter arrive après le graphe entier, celle du style définir-en-exécutant avec "
        "son premier nœud. Aujourd'hui, chaque framework offre les deux : le mode immédiat par défaut, un graphe "
        "sur demande."),
    "A3.3": Words(
        "TensorFlow suit l'idiome « les données comme code, et le code, ce sont des données ».",
        "Dans TensorFlow, le programme est une structure de données (le graphe).",
        "vrai, et c'est toujours ainsi que TensorFlow livre les modèles",
        "Le GraphDef a été compté, écrit sur disque, réimporté et exécuté ; SavedModel stocke toujours les graphes "
        "tracés des tf.function sous forme de GraphDef."),
    "A3.14": Words(
        "Dans TensorFlow, vous définissez le graphe de façon statique avant qu'un modèle puisse s'exécuter.",
        "Un graphe TensorFlow est construit en entier avant que le modèle ne s'exécute.",
        "vrai pour TensorFlow 1, mais ce n'est plus le comportement par défaut",
        "Vrai pour TensorFlow 1 et pour tf.compat.v1 : chaque nœud est construit avant que Session.run ne calcule "
        "une valeur (notebook 02, section 1). TensorFlow 2 fonctionne en mode immédiat par défaut ; un graphe "
        "n'est construit avant l'exécution qu'à l'intérieur d'une tf.function, qui le trace à son premier appel."),
    "A3.4": Words(
        "Toute communication avec le monde extérieur passe par l'objet tf.Session et par tf.Placeholder, qui sont "
        "des tenseurs qui seront remplacés par des données externes à l'exécution.",
        "Les données n'entrent dans un graphe TensorFlow que par les placeholders, et les résultats n'en sortent "
        "que par Session.run.",
        "vrai dans TensorFlow 1, absent de l'API par défaut de TensorFlow 2",
        "Un peu moins strict qu'il n'y paraît, même dans TensorFlow 1 : on peut fournir ou demander n'importe quel "
        "tenseur, pas seulement un placeholder (le notebook 02 a fourni un tenseur intermédiaire). TensorFlow 2 n'a "
        "par défaut ni Session ni placeholder : une tf.function prend des arguments ordinaires."),
    "A3.5": Words(
        "Dans PyTorch, les choses sont bien plus impératives et dynamiques : vous pouvez définir, modifier et "
        "exécuter des nœuds au fur et à mesure, sans interfaces de session spéciales ni placeholders.",
        "PyTorch exécute chaque opération au moment où la ligne Python s'exécute ; ni session, ni placeholders.",
        "vrai, et plus seulement pour PyTorch",
        "PyTorch calcule chaque ligne aussitôt et son graphe grandit nœud par nœud ; TensorFlow 2 a fait le même "
        "choix (mode immédiat par défaut ; Session et placeholder ne survivent que dans tf.compat.v1)."),
    "A3.6": Words(
        "le framework est plus étroitement intégré au langage Python et semble plus natif la plupart du temps.",
        "Le code PyTorch est du Python ordinaire : print, les points d'arrêt, if et while fonctionnent tels quels.",
        "vrai pour le code en mode immédiat",
        "print, breakpoint(), if et while se comportent comme dans n'importe quel programme Python. Les "
        "restrictions reviennent avec les graphes (notebook 04) : une tf.function n'exécute son Python qu'une fois, "
        "pendant le traçage ; dans torch.compile, un print coupe le graphe en deux."),
    "A3.7": Words(
        "Quand vous écrivez en TensorFlow, vous avez parfois l'impression que votre modèle est derrière un mur de "
        "briques percé de plusieurs petits trous pour communiquer.",
        "Il est difficile de regarder à l'intérieur d'un modèle TensorFlow : seuls passent les résultats demandés "
        "et les valeurs fournies.",
        "toujours vrai à l'intérieur d'un graphe",
        "Dans les deux frameworks : dans une tf.function, Python s'est exécuté une fois (1 appel sur 3) ; dans "
        "torch.compile, un print a coupé le graphe en deux. En dehors d'eux, il n'y a plus de mur."),
    "A3.8": Words(
        "Quoi qu'il en soit, cela ressemble encore plus ou moins à une question de goût.",
        "Le style qu'on préfère est une question de goût.",
        "en partie",
        "Chaque style rend faciles des tâches différentes, et cela n'est pas affaire de goût. Ce qui est devenu un "
        "choix, c'est le style, fonction par fonction : les deux frameworks partent du style définir-en-exécutant "
        "et passent à un graphe sur demande (tf.function ; torch.compile, torch.export). Ce qui reste affaire de "
        "goût : les règles d'AutoGraph face aux gardes de Dynamo, Keras face à nn.Module."),
    "A3.9": Words(
        "ces approches ne diffèrent pas seulement du point de vue du génie logiciel : il existe plusieurs "
        "architectures de réseaux de neurones dynamiques qui peuvent tirer parti de l'approche dynamique.",
        "Le choix compte pour les modèles dont la forme dépend des données, et pas seulement pour le confort.",
        "vrai",
        "Des séquences de longueurs différentes (notebook 06) et des arbres (notebook 07) changent la forme du "
        "graphe à chaque entrée ; un graphe statique a besoin de remplissage, d'une boucle dans le graphe ou d'un "
        "traçage par forme."),
    "A3.10": Words(
        "Rappelez-vous les RNN : avec des graphes statiques, la longueur de la séquence d'entrée restera "
        "constante. Cela veut dire que si vous développez un modèle d'analyse de sentiment pour des phrases en "
        "anglais, vous devez fixer la longueur des phrases à une certaine valeur maximale et compléter toutes les "
        "séquences plus courtes par des zéros.",
        "Un graphe statique oblige à compléter chaque séquence jusqu'à une même longueur maximale.",
        "vrai d'un graphe déroulé dans le temps, pas des graphes statiques",
        "Un graphe déroulé à l'avance a une longueur fixe (notre moteur ; une tf.function sur une boucle Python "
        "trace une fois par longueur). Mais une boucle dans le graphe (tf.while_loop, dynamic_rnn de TensorFlow 1) "
        "accepte n'importe quelle longueur, et tf.RaggedTensor avec une input_signature exécute des phrases de "
        "toutes les longueurs, sans remplissage, en un seul traçage. Le remplissage à l'intérieur d'un lot reste "
        "courant dans les deux frameworks, parce que la mise en lots est rapide, et les zéros exigent un masque ou "
        "des longueurs (pack_padded_sequence) pour laisser les résultats inchangés."),
    "A3.11": Words(
        "Et vous aurez encore plus de problèmes dans le domaine des RNN récursifs et des RNN arborescents.",
        "Les réseaux qui ont la forme d'un arbre syntaxique sont plus difficiles encore pour les graphes "
        "statiques.",
        "toujours vrai des graphes statiques",
        "Vrai de tout graphe qui doit exister avant les données : notre moteur définir-puis-exécuter a eu besoin "
        "d'un nouveau graphe pour chaque nouvelle forme d'arbre, tf.function retrace pour chaque nouvelle "
        "imbrication de son entrée, et une tf.function dont la récursion dépend d'un tenseur ne peut pas être "
        "tracée du tout (une StagingError qui enveloppe une RecursionError, pendant le traçage). Le style "
        "définir-en-exécutant, dans notre moteur, dans PyTorch et dans TensorFlow 2 en mode immédiat, suit "
        "simplement chaque arbre."),
    "A3.12": Words(
        "Actuellement, Tensorflow ne prend en charge les entrées dynamiques que de façon limitée, via Tensorflow "
        "Fold.",
        "TensorFlow ne traite les entrées en forme d'arbre que grâce à TensorFlow Fold.",
        "appartient à l'histoire",
        "La dernière version de Fold visait TensorFlow 1.0, son dépôt est archivé, son README dit qu'il n'est pas "
        "un produit officiel de Google, et il n'a jamais été porté vers TensorFlow 2, dont le mode immédiat par "
        "défaut exécute un RNN arborescent récursif aussi simplement que PyTorch. L'idée de Fold survit : mettre "
        "en lots les nœuds de même profondeur à travers 50 arbres de 8 mots a exécuté 57 opérations au lieu de "
        "1 400."),
    "A3.13": Words(
        "PyTorch le permet par défaut.",
        "PyTorch gère nativement les entrées dynamiques.",
        "toujours vrai",
        "Un RNN arborescent en PyTorch est une simple récursion sur chaque arbre, et chaque exécution enregistre le "
        "graphe de cet arbre (22 nœuds autograd pour la phrase du notebook 07)."),
}
