/**
 * Profiles of Polish banking life for generated histories (docs/concepts/scenarios.md). Each is a set of rhythms —
 * a monthly bill on its day, a shop visited a few times a week — with realistic merchants,
 * categories and amounts in grosze. The generator (generate-history.ts) draws from them with a
 * seeded PRNG only, so a profile plus a seed is always the same history.
 */
import type { Category, Currency } from '@sandbank/schemas';

export const PROFILES = ['student', 'family', 'freelancer', 'abroad'] as const;
export type Profile = (typeof PROFILES)[number];

/** Inclusive range of minor units; debits are negative. */
type Amount = readonly [number, number];

export interface Rhythm {
  description: string;
  merchant: string | null;
  category: Category;
  amount: Amount;
  /** Local hour range (Europe/Warsaw) of the booking. */
  hours: readonly [number, number];
  /** A monthly item on this day of the month (the last day when the month is shorter)… */
  dayOfMonth?: number;
  /** …or a random item, on average this many times a week (weekends weighted by `weekend`). */
  perWeek?: number;
  weekend?: number;
  /** Card payments: in the last two days of the history they are still pending (posting three days after their date). */
  card?: boolean;
  /**
   * Charged in another currency: `amount` is in its minor units, converted at the world's reference rate of the
   * day plus the default card FX margin (docs/concepts/currencies.md); an account in this currency books it as is.
   */
  originalCurrency?: Currency;
}

const rent = (amount: number, day = 1): Rhythm => ({
  description: 'Czynsz za mieszkanie',
  merchant: 'Wynajmujący',
  category: 'housing',
  amount: [-amount, -amount],
  hours: [8, 10],
  dayOfMonth: day,
});

const groceries: Rhythm[] = [
  {
    description: 'BIEDRONKA zakupy',
    merchant: 'Biedronka',
    category: 'groceries',
    amount: [-180_00, -25_00],
    hours: [8, 20],
    perWeek: 2,
    card: true,
  },
  {
    description: 'LIDL zakupy',
    merchant: 'Lidl',
    category: 'groceries',
    amount: [-220_00, -30_00],
    hours: [9, 20],
    perWeek: 1,
    weekend: 2,
    card: true,
  },
  {
    description: 'ŻABKA',
    merchant: 'Żabka',
    category: 'groceries',
    amount: [-38_00, -6_50],
    hours: [7, 23],
    perWeek: 3,
    card: true,
  },
];

const subscriptions: Rhythm[] = [
  {
    description: 'SPOTIFY P2B9C1A3F',
    merchant: 'Spotify',
    category: 'subscriptions',
    amount: [-23_99, -23_99],
    hours: [3, 5],
    dayOfMonth: 14,
  },
  {
    description: 'NETFLIX.COM',
    merchant: 'Netflix',
    category: 'subscriptions',
    amount: [-49_00, -49_00],
    hours: [3, 5],
    dayOfMonth: 21,
  },
];

const PROFILE_RHYTHMS: Record<Profile, Rhythm[]> = {
  student: [
    {
      description: 'Przelew od rodziców',
      merchant: null,
      category: 'transfer',
      amount: [1_500_00, 1_500_00],
      hours: [9, 12],
      dayOfMonth: 1,
    },
    {
      description: 'Stypendium socjalne',
      merchant: 'Uniwersytet Warszawski',
      category: 'salary',
      amount: [850_00, 850_00],
      hours: [8, 11],
      dayOfMonth: 25,
    },
    {
      description: 'Wypłata – praca dorywcza',
      merchant: 'Pyszne.pl',
      category: 'salary',
      amount: [350_00, 900_00],
      hours: [10, 16],
      perWeek: 0.4,
    },
    rent(1_150_00, 5),
    {
      description: 'Play abonament',
      merchant: 'Play',
      category: 'telecom',
      amount: [-35_00, -35_00],
      hours: [6, 9],
      dayOfMonth: 12,
    },
    {
      description: 'ZTM bilet 30-dniowy ulgowy',
      merchant: 'ZTM Warszawa',
      category: 'transport',
      amount: [-55_00, -55_00],
      hours: [7, 9],
      dayOfMonth: 2,
    },
    {
      description: 'SPOTIFY PREMIUM STUDENT',
      merchant: 'Spotify',
      category: 'subscriptions',
      amount: [-11_99, -11_99],
      hours: [3, 5],
      dayOfMonth: 14,
    },
    ...groceries.map((rhythm) => ({ ...rhythm, amount: [Math.round(rhythm.amount[0] * 0.5), rhythm.amount[1]] as const })),
    {
      description: 'KEBAB KING',
      merchant: 'Kebab King',
      category: 'restaurants',
      amount: [-42_00, -22_00],
      hours: [13, 23],
      perWeek: 1.5,
      weekend: 2,
      card: true,
    },
    { description: 'Przelew BLIK', merchant: null, category: 'transfer', amount: [-120_00, -15_00], hours: [10, 23], perWeek: 1 },
    {
      description: 'PKP Intercity bilet',
      merchant: 'PKP Intercity',
      category: 'transport',
      amount: [-89_00, -39_00],
      hours: [8, 20],
      perWeek: 0.3,
      card: true,
    },
    {
      description: 'Wypłata z bankomatu',
      merchant: 'Euronet',
      category: 'cash',
      amount: [-200_00, -50_00],
      hours: [10, 22],
      perWeek: 0.3,
    },
  ],
  family: [
    {
      description: 'Wynagrodzenie',
      merchant: 'Comarch S.A.',
      category: 'salary',
      amount: [8_450_00, 8_450_00],
      hours: [8, 10],
      dayOfMonth: 10,
    },
    {
      description: 'Wynagrodzenie',
      merchant: 'Szpital Wojewódzki',
      category: 'salary',
      amount: [6_120_00, 6_120_00],
      hours: [8, 10],
      dayOfMonth: 28,
    },
    {
      description: '800 plus',
      merchant: 'ZUS',
      category: 'transfer',
      amount: [1_600_00, 1_600_00],
      hours: [9, 12],
      dayOfMonth: 20,
    },
    {
      description: 'Rata kredytu hipotecznego',
      merchant: 'PKO BP',
      category: 'housing',
      amount: [-3_240_00, -3_240_00],
      hours: [6, 8],
      dayOfMonth: 15,
    },
    {
      description: 'Czynsz administracyjny',
      merchant: 'Wspólnota Mieszkaniowa',
      category: 'housing',
      amount: [-780_00, -780_00],
      hours: [8, 10],
      dayOfMonth: 10,
    },
    {
      description: 'PGE Obrót prąd',
      merchant: 'PGE',
      category: 'utilities',
      amount: [-420_00, -260_00],
      hours: [8, 12],
      dayOfMonth: 18,
    },
    {
      description: 'Tauron gaz',
      merchant: 'Tauron',
      category: 'utilities',
      amount: [-310_00, -140_00],
      hours: [8, 12],
      dayOfMonth: 22,
    },
    {
      description: 'Orange Polska',
      merchant: 'Orange',
      category: 'telecom',
      amount: [-159_99, -159_99],
      hours: [6, 9],
      dayOfMonth: 8,
    },
    ...subscriptions,
    ...groceries.map((rhythm) => ({
      ...rhythm,
      amount: [rhythm.amount[0] * 2, rhythm.amount[1] * 2] as const,
      perWeek: (rhythm.perWeek ?? 1) * 1.5,
    })),
    {
      description: 'ORLEN stacja paliw',
      merchant: 'Orlen',
      category: 'fuel',
      amount: [-380_00, -180_00],
      hours: [7, 21],
      perWeek: 1,
      card: true,
    },
    {
      description: 'Apteka Gemini',
      merchant: 'Gemini',
      category: 'health',
      amount: [-140_00, -18_00],
      hours: [9, 19],
      perWeek: 0.5,
      card: true,
    },
    {
      description: 'Restauracja',
      merchant: 'Da Grasso',
      category: 'restaurants',
      amount: [-190_00, -70_00],
      hours: [13, 21],
      perWeek: 0.6,
      weekend: 3,
      card: true,
    },
    {
      description: 'Allegro zakupy',
      merchant: 'Allegro',
      category: 'shopping',
      amount: [-420_00, -35_00],
      hours: [18, 23],
      perWeek: 0.7,
    },
    {
      description: 'Przelew BLIK',
      merchant: null,
      category: 'transfer',
      amount: [-250_00, -20_00],
      hours: [9, 22],
      perWeek: 0.8,
    },
    {
      description: 'Wypłata z bankomatu',
      merchant: 'Euronet',
      category: 'cash',
      amount: [-400_00, -100_00],
      hours: [10, 20],
      perWeek: 0.25,
    },
  ],
  // Someone who lives in Poland, is paid in euro and spends abroad: a EUR salary, USD subscriptions, a holiday's card payments.
  abroad: [
    {
      description: 'Salary ACME GmbH',
      merchant: 'ACME GmbH',
      category: 'salary',
      amount: [2_400_00, 2_400_00],
      hours: [9, 11],
      dayOfMonth: 25,
      originalCurrency: 'EUR',
    },
    rent(2_900_00, 2),
    {
      description: 'Netflix.com',
      merchant: 'Netflix',
      category: 'subscriptions',
      amount: [-15_49, -15_49],
      hours: [3, 6],
      dayOfMonth: 8,
      originalCurrency: 'USD',
    },
    {
      description: 'GitHub Copilot',
      merchant: 'GitHub',
      category: 'subscriptions',
      amount: [-10_00, -10_00],
      hours: [3, 6],
      dayOfMonth: 14,
      originalCurrency: 'USD',
    },
    ...groceries,
    {
      description: 'Restaurant abroad',
      merchant: 'Trattoria da Enzo',
      category: 'restaurants',
      amount: [-85_00, -12_00],
      hours: [12, 23],
      perWeek: 1.5,
      card: true,
      originalCurrency: 'EUR',
    },
    {
      description: 'Hotel abroad',
      merchant: 'Booking.com',
      category: 'entertainment',
      amount: [-450_00, -90_00],
      hours: [14, 22],
      perWeek: 0.3,
      card: true,
      originalCurrency: 'EUR',
    },
    {
      description: 'Uber trip',
      merchant: 'Uber',
      category: 'transport',
      amount: [-42_00, -6_00],
      hours: [7, 23],
      perWeek: 1,
      card: true,
      originalCurrency: 'USD',
    },
  ],
  freelancer: [
    {
      description: 'Zapłata za fakturę',
      merchant: null,
      category: 'salary',
      amount: [3_000_00, 11_000_00],
      hours: [9, 17],
      perWeek: 0.5,
    },
    {
      description: 'ZUS składki społeczne i zdrowotne',
      merchant: 'ZUS',
      category: 'other',
      amount: [-1_773_00, -1_773_00],
      hours: [8, 10],
      dayOfMonth: 20,
    },
    {
      description: 'Urząd Skarbowy PIT-5L',
      merchant: 'Urząd Skarbowy',
      category: 'other',
      amount: [-2_400_00, -900_00],
      hours: [8, 10],
      dayOfMonth: 20,
    },
    rent(3_200_00, 1),
    {
      description: 'Coworking Business Link',
      merchant: 'Business Link',
      category: 'housing',
      amount: [-690_00, -690_00],
      hours: [8, 10],
      dayOfMonth: 3,
    },
    {
      description: 'Play Internet + telefon',
      merchant: 'Play',
      category: 'telecom',
      amount: [-99_00, -99_00],
      hours: [6, 9],
      dayOfMonth: 12,
    },
    {
      description: 'Tauron prąd',
      merchant: 'Tauron',
      category: 'utilities',
      amount: [-240_00, -120_00],
      hours: [8, 12],
      dayOfMonth: 24,
    },
    ...subscriptions,
    ...groceries,
    {
      description: 'ORLEN stacja paliw',
      merchant: 'Orlen',
      category: 'fuel',
      amount: [-340_00, -150_00],
      hours: [7, 21],
      perWeek: 0.8,
      card: true,
    },
    {
      description: 'PKP Intercity bilet',
      merchant: 'PKP Intercity',
      category: 'transport',
      amount: [-189_00, -59_00],
      hours: [6, 20],
      perWeek: 0.4,
      card: true,
    },
    {
      description: 'Lunch',
      merchant: 'Bistro Mięso i Wino',
      category: 'restaurants',
      amount: [-95_00, -35_00],
      hours: [12, 15],
      perWeek: 2,
      card: true,
    },
    {
      description: 'Przelew BLIK',
      merchant: null,
      category: 'transfer',
      amount: [-200_00, -20_00],
      hours: [9, 22],
      perWeek: 0.7,
    },
    {
      description: 'Wypłata z bankomatu',
      merchant: 'Euronet',
      category: 'cash',
      amount: [-300_00, -100_00],
      hours: [10, 20],
      perWeek: 0.2,
    },
  ],
};

export function rhythmsOf(profile: Profile): readonly Rhythm[] {
  return PROFILE_RHYTHMS[profile];
}
