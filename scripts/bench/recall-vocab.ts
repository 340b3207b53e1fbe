// Word pools of the recall corpus (./recall-corpus.ts): the values planted facts draw from, and
// the chatter around them, which holds no digit and no word of the value pools.
// ------------------------------------------------------------------ value pools

export const NAMES = [
  "Maren", "Tobias", "Ingrid", "Osman", "Priya", "Dario", "Yusuf", "Leonie", "Anouk", "Bram", "Femke", "Ximena", "Rafael",
  "Keiko", "Saskia", "Niamh", "Ciaran", "Aoife", "Oksana", "Bogdan", "Zofia", "Mateusz", "Ilse", "Gunnar", "Sigrid", "Tomasz",
  "Lucia", "Matteo", "Chiara", "Elif", "Kemal", "Amara", "Kwame", "Ayodele", "Nadia", "Farid", "Leila", "Svea", "Henrik",
  "Astrid", "Wren", "Ezra", "Isla", "Rowan", "Thea", "Lotte", "Pieter", "Joost", "Marisol", "Camila", "Esther", "Miriam",
  "Anselm", "Quentin", "Margaux", "Bastien", "Solene", "Tiago", "Beatriz", "Dagny", "Emeric", "Florin", "Halvard", "Idris",
];
export const PET_NAMES = ["Biscuit", "Pickle", "Juniper", "Moose", "Clementine", "Waffles", "Pepper", "Noodle", "Ziggy", "Marmalade", "Tofu", "Pumpkin", "Sprout", "Fennel", "Ruffles"];
export const CITIES = [
  "Porto", "Ghent", "Utrecht", "Leipzig", "Bologna", "Valencia", "Krakow", "Tallinn", "Bergen", "Galway", "Ljubljana", "Salzburg",
  "Bordeaux", "Seville", "Gdansk", "Aarhus", "Tampere", "Brno", "Graz", "Malmo", "Antwerp", "Trieste", "Zagreb", "Plovdiv",
  "Cluj", "Riga", "Vilnius", "Innsbruck", "Basel", "Lausanne", "Nantes", "Granada", "Bilbao", "Verona", "Dresden", "Freiburg",
  "Heidelberg", "Cork", "Kyoto", "Sapporo", "Hobart", "Dunedin", "Halifax", "Oaxaca", "Cusco", "Valparaiso", "Lisbon", "Toulouse",
];
export const BANDS = [
  "Velvet Orchard", "Paper Lanterns", "Copper Foxes", "Silent Harbour", "Neon Meadow", "Glass Tigers", "Amber Pilots", "Hollow Cedars",
  "Static Gardens", "Marble Wolves", "Lunar Bakers", "Rusty Comets",
];
export const VENUES = ["Roundhouse", "Paradiso", "Olympia", "Apollo", "Palladium", "Forum", "Electric Ballroom", "Orpheum"];
export const ALLERGENS = ["hazelnuts", "shellfish", "sesame", "kiwi", "penicillin", "celery", "mustard seeds", "lupin flour"];
export const COURSES = ["pottery", "salsa", "woodworking", "watercolour", "Portuguese", "bouldering", "sourdough baking", "ceramics", "calligraphy", "fencing"];
export const GIFTS = ["telescope", "espresso machine", "kayak", "record player", "sewing machine", "drone", "bread maker", "ukulele", "hammock", "microscope"];
export const CARS = ["Skoda Octavia", "Volvo V60", "Toyota Yaris", "Mazda CX5", "Renault Clio", "Subaru Outback", "Kia Niro", "Fiat Panda"];
export const EMPLOYERS = ["Northwind Logistics", "Brightwater Labs", "Calder Insurance", "Ferngrove Studios", "Halcyon Health", "Kestrel Robotics", "Lumen Analytics", "Oakridge Foods"];
export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

export const RELATIONS = [
  "sister", "brother", "cousin", "neighbour", "dentist", "landlord", "physiotherapist", "piano teacher", "accountant", "best friend",
  "flatmate", "vet", "mechanic", "yoga instructor", "godson", "niece",
];
export const APPOINTMENTS = ["dentist", "eye test", "passport", "haircut", "vaccination", "mortgage advisor", "physio", "car service"];
export const LODGINGS = ["cabin", "farmhouse", "houseboat", "cottage", "small flat", "guesthouse"];
export const OCCASIONS = ["our anniversary", "the family reunion", "the long weekend", "the summer holiday", "my birthday", "the ski trip"];
export const TRADES = [
  ["plumber", "boiler"], ["electrician", "fuse box"], ["roofer", "gutter"], ["carpenter", "staircase"], ["glazier", "bay window"],
  ["mechanic", "gearbox"], ["locksmith", "front door lock"], ["tiler", "shower wall"],
] as const;
export const ACTIVITIES = ["swimming", "football", "choir", "chess club", "drama club", "judo", "violin lesson", "scouts"];
export const CODED = ["bike lock", "storage unit", "garden shed", "office locker", "building gate", "safe"];
export const ANIMALS = ["puppy", "kitten", "rabbit", "parrot", "tortoise"];
export const PEOPLE_FOR_GIFTS = ["mum", "dad", "grandmother", "uncle", "aunt", "partner"];

// ------------------------------------------------------------------ chatter (no digits, no pool words)

export const CHAT_USER = [
  "It has been raining all morning and I can't decide whether to go for a walk.",
  "I'm trying to cook something new tonight, maybe a lentil stew with lots of garlic.",
  "Work was exhausting today, too many meetings and not enough coffee.",
  "Can you suggest a good way to keep basil alive on a windowsill?",
  "I finally finished that long novel and I'm not sure how I feel about the ending.",
  "We watched a documentary about octopuses last night, they are so clever.",
  "What's a quick breakfast that isn't just toast again?",
  "My back is a bit stiff from sitting all day, any simple stretches?",
  "I keep forgetting to water the plants on the balcony.",
  "Do you think it's worth learning to make fresh pasta at home?",
  "The neighbours are renovating and the drilling starts early every day.",
  "I want to read more this year but my evenings just disappear.",
  "How do you get rid of the smell of burnt onions in the kitchen?",
  "I'm thinking of rearranging the living room so the sofa faces the window.",
  "Any ideas for a rainy afternoon with friends that doesn't involve screens?",
  "I tried meditating this morning and mostly thought about lunch.",
  "Is it normal for bread dough to rise so slowly when the flat is cold?",
  "I need a polite way to decline a party invitation without sounding rude.",
];
export const CHAT_ASSISTANT = [
  "That sounds like a good plan; a short walk between showers can clear your head.",
  "A lentil stew is forgiving: soften the onions slowly, add the spices early and let it simmer until thick.",
  "Long meeting days are draining, so try to block a quiet hour tomorrow for focused work.",
  "Basil likes warmth, bright light and regular watering from below, and pinching the tops keeps it bushy.",
  "Endings that leave questions open often stay with us longer than neat ones.",
  "Octopuses really are remarkable; they solve puzzles and each arm can act somewhat on its own.",
  "Overnight oats, a quick omelette with greens, or yoghurt with fruit and seeds are all easy options.",
  "Gentle cat and cow stretches, a standing hamstring stretch and a slow neck roll help after long sitting.",
  "A small watering routine, like every other evening after dinner, makes it much easier to remember.",
  "Fresh pasta is mostly patience: flour, eggs, a good knead and a long rest before rolling.",
  "Earplugs or a white noise app can soften early renovation noise while it lasts.",
  "Reading a few pages before bed instead of scrolling is a gentle way to build the habit.",
  "Simmer a small pot of water with lemon peel and open the windows; the smell fades quickly.",
  "Facing the sofa towards the light usually makes a room feel larger and calmer.",
  "A board game afternoon, a cooking session together or a puzzle are lovely screen-free ideas.",
  "That happens to everyone; noticing the thought and coming back to the breath is the practice.",
  "Yes, cold slows the yeast down; a warm spot near the oven or a longer rise will get it there.",
  "Thank them warmly, say you already have plans and suggest meeting up another time.",
  "Take it one step at a time and see how it feels.",
  "That's a lovely idea, and you can always adjust it as you go.",
];
export const ACKS = [
  "Oh, that's good to know, thanks for telling me.",
  "That sounds exciting!",
  "Lovely, I'll keep that in mind.",
  "Noted, that helps me give better suggestions.",
  "How nice, I hope it all goes smoothly.",
];
