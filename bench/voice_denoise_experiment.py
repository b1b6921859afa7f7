import json, os, subprocess, sys, numpy as np
from scipy.io import wavfile
from concurrent.futures import ThreadPoolExecutor
# Issue 35, twenty-ninth session: would a Wiener filter help Moonshine in white noise? An experiment
# outside the product, on the spoken DEVELOPMENT set only. Each line of bench/commands/spoken-dev.txt
# is said by festival's slt voice ("fest") or the natural voice ("piper"), padded (1.5 s before, 1 s
# after), mixed with white noise at the SNR given (active speech level, as bench voice does), then
# either left as is ("base") or filtered as a whole ("dnF": Wiener gain floored at F dB, the noise
# of each frequency a low percentile of the previous 3 s), and heard by `assist listen --file`.
#   python3 bench/voice_denoise_experiment.py fest base,dn12,dn20 10
#   python3 bench/voice_denoise_experiment.py piper base,dn12 10
# BENCHMARKS.md, "Issue 35 (twenty-ninth session)", says what it showed and why the filter is not in the listener.
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
A = os.environ.get('ASSIST', os.path.join(REPO, '.build/release/assist'))
W = os.environ.get('WORK', '/tmp/voice-denoise')
os.makedirs(W, exist_ok=True)
SR = 16000
lines = []
for l in open(os.path.join(REPO, 'bench/commands/spoken-dev.txt')):
    l = l.strip()
    if not l or l.startswith('#'): continue
    said, label = [x.strip() for x in l.split('=>')]
    lines.append((said, label))

def render_festival():
    os.makedirs(f'{W}/fest', exist_ok=True)
    todo = [(i, s) for i, (s, _) in enumerate(lines) if not os.path.exists(f'{W}/fest/{i}.wav')]
    if not todo: return
    script = ['(voice_cmu_us_slt_arctic_hts)']
    for i, s in todo:
        t = s.replace('"', '').replace('\\', '')
        script += [f'(set! u (SynthText "{t}"))', '(utt.wave.resample u 16000)', f'(utt.save.wave u "{W}/fest/{i}.wav" (quote riff))']
    subprocess.run(['festival', '--pipe'], input='\n'.join(script) + '\n', text=True, check=True)

def render_piper():
    os.makedirs(f'{W}/piper', exist_ok=True)
    for i, (s, _) in enumerate(lines):
        p = f'{W}/piper/{i}.wav'
        if os.path.exists(p): continue
        subprocess.run([A, 'say', '--voice', 'natural', s, '--speak-to', p + '.raw.wav'], check=True, capture_output=True)
        subprocess.run(['sox', p + '.raw.wav', '-c', '1', '-r', '16000', p], check=True)

def active_rms(x):
    f = SR // 100
    p = np.array([np.mean(x[i:i+f].astype(np.float64)**2) for i in range(0, len(x), f)])
    a = p[p >= p.max() * 1e-4]
    return np.sqrt(a.mean())

def mix(speech, seed, snr):
    x = np.concatenate([np.zeros(int(1.5*SR)), speech, np.zeros(SR)])
    rng = np.random.default_rng(seed)
    n = rng.standard_normal(len(x))
    n *= active_rms(speech) / np.sqrt(np.mean(n**2)) / 10**(snr/20)
    return x + n

def denoise(x, floor_db=12.0, pct=0.2, over=1.0):
    N, H = 512, 256
    w = 0.5 - 0.5*np.cos(2*np.pi*np.arange(N)/N)
    pad = np.concatenate([np.zeros(H), x, np.zeros(N)])
    frames = (len(pad) - N)//H + 1
    S = np.stack([np.fft.rfft(pad[i*H:i*H+N]*w) for i in range(frames)])
    P = np.abs(S)**2
    # noise: causal sliding low percentile over the previous ~3 s of frames (no oracle)
    look = int(3*SR/H)
    noise = np.empty_like(P)
    bias = 1/-np.log(1-pct)
    for i in range(frames):
        lo = max(0, i-look)
        seg = P[lo:i+1]
        noise[i] = np.quantile(seg, pct, axis=0)*bias*over if len(seg) >= 8 else np.quantile(P[:max(8,i+1)], pct, axis=0)*bias*over
    xi = np.maximum(P/np.maximum(noise,1e-20) - 1, 0)
    g = np.maximum(xi/(1+xi), 10**(-floor_db/20))
    out = np.zeros(len(pad))
    for i in range(frames):
        out[i*H:i*H+N] += np.fft.irfft(S[i]*g[i], N)
    return out[H:H+len(x)]

def listen(path):
    r = subprocess.run([A, 'listen', '--file', path, '--json'], capture_output=True, text=True)
    ev = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{')]
    return ev

def run(voice, variant, snr=10):
    out = []
    def one(i):
        said, label = lines[i]
        _, sp = wavfile.read(f'{W}/{voice}/{i}.wav'); sp = sp.astype(np.float64)/32768
        if sp.ndim > 1: sp = sp[:,0]
        x = mix(sp, 1000+i, snr) if snr is not None else np.concatenate([np.zeros(int(1.5*SR)), sp, np.zeros(SR)])
        if variant.startswith('dn'):
            fl = float(variant[2:] or 12)
            x = denoise(x, floor_db=fl)
        x = x / max(1.0, np.abs(x).max()/0.99)
        p = f'{W}/tmp-{voice}-{variant}-{i}.wav'
        wavfile.write(p, SR, (x*32767).astype(np.int16))
        ev = listen(p); os.remove(p)
        return (i, said, label, ev)
    with ThreadPoolExecutor(2) as ex:
        res = list(ex.map(one, range(len(lines))))
    right = wrong = acted_none = asked = 0; n = 0
    for i, said, label, ev in res:
        heard = [e for e in ev if e.get('event') in ('heard',)]
        intent = label.split()[0]
        if intent == 'none':
            acted_none += any(e.get('intent') for e in heard)
            continue
        n += 1
        ok = len(heard) == 1 and heard[0].get('intent') == intent and all(w in (heard[0].get('command') or '') for w in label.split()[1:2])
        right += ok
        wrong += (not ok) and any(e.get('intent') and e.get('intent') != intent for e in heard)
    print(f'{voice} {variant} snr={snr}: right {right}/{n}, wrong {wrong}, none acted {acted_none}', flush=True)
    json.dump(res, open(f'{W}/res-{voice}-{variant}-{snr}.json', 'w'))

if __name__ == '__main__':
    voice = sys.argv[1]; variants = sys.argv[2].split(','); snr = None if sys.argv[3] == 'clean' else float(sys.argv[3])
    (render_festival if voice == 'fest' else render_piper)()
    for v in variants: run(voice, v, snr)
