"""Numerical search for a replace-one pair of the Poisson-subsampled Gaussian worse than the
most distant one (docs/privacy.md, "Neighbouring relations"). Evidence, not a proof.

One record's clipped contribution u is replaced by v (|u|, |v| <= 1); after post-processing the
pair is P_u = (1-q) N(0, z^2 I) + q N(u, z^2 I) against P_v, in the plane spanned by u and v.
For a grid of (q, z, u, v) it compares the hockey-stick divergence H_a(P_u || P_v) =
int (p_u - a p_v)_+ with that of the antipodal pair (u, v) = (e, -e), on a grid of a = e^eps,
and prints any excess. numpy only; a few minutes. Prints "max excess 0" when none is found.
"""
import numpy as np
def hs1(u,v,q,z,alphas,x):
    n=lambda m: np.exp(-(x-m)**2/(2*z*z))/(z*np.sqrt(2*np.pi))
    p=(1-q)*n(0)+q*n(u); qq=(1-q)*n(0)+q*n(v); dx=x[1]-x[0]
    return np.array([np.maximum(p-a*qq,0).sum()*dx for a in alphas])
worst=0
for q in [0.01,0.1,0.3,0.6,0.9]:
  for z in [0.3,0.5,1.0,2.0]:
    x=np.linspace(-12*z-2,12*z+2,40001)
    eps=np.linspace(0,6,61); alphas=np.exp(eps)
    ref=hs1(1,-1,q,z,alphas,x)
    for u in np.linspace(-1,1,21):
      for v in np.linspace(-1,1,21):
        h=hs1(u,v,q,z,alphas,x)
        r=(h-ref).max()
        if r>worst+1e-12:
            worst=r; print("1D exceed", q,z,u,v,r, eps[(h-ref).argmax()])
print("1D max excess", worst)
# 2D: u=(a,b), v=(c,d) in unit disk; integrate on grid
worst=0
for q in [0.1,0.5,0.9]:
  for z in [0.5,1.0]:
    g=np.linspace(-7*z-1.5,7*z+1.5,701); X,Y=np.meshgrid(g,g); dA=(g[1]-g[0])**2
    n=lambda m: np.exp(-((X-m[0])**2+(Y-m[1])**2)/(2*z*z))/(2*np.pi*z*z)
    alphas=np.exp(np.linspace(0,5,26))
    def hs2(u,v):
        p=(1-q)*n((0,0))+q*n(u); qq=(1-q)*n((0,0))+q*n(v)
        return np.array([np.maximum(p-a*qq,0).sum()*dA for a in alphas])
    ref=hs2((1,0),(-1,0))
    for th in np.linspace(0,np.pi,13):
      for r1 in [0.5,0.8,1.0]:
        for r2 in [0.5,0.8,1.0]:
          u=(r1,0); v=(r2*np.cos(th),r2*np.sin(th))
          h=hs2(u,v); r=(h-ref).max()
          if r>worst+1e-10: worst=r; print("2D exceed",q,z,u,v,r)
print("2D max excess", worst)
